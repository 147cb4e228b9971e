import { z } from 'zod';
import { isTrustedProxyEntry } from '../http/trusted-proxies.ts';

/**
 * One environment variable: its zod schema and, in words, what it expects. The words are what
 * an operator reads when the value is missing or malformed, so they name the accepted form.
 */
export interface Variable<T extends z.ZodType = z.ZodType> {
  readonly schema: T;
  readonly expects: string;
  /** Secrets are never echoed back in errors or on status pages. */
  readonly secret: boolean;
}

function variable<T extends z.ZodType>(schema: T, expects: string, secret = false): Variable<T> {
  return { schema, expects, secret };
}

/** The same variable, but allowed to be unset (embedded mode fills some in itself). */
export function optional<T extends z.ZodType>(v: Variable<T>): Variable<z.ZodOptional<T>> {
  return { ...v, schema: v.schema.optional() };
}

/** Whether the runtime knows this IANA time zone (Intl throws a RangeError when not). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A comma-separated list, each part trimmed, empty parts dropped. */
const commaList = z
  .string()
  .default('')
  .transform((text) =>
    text
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  );

/** `https://radio.example` or `http://host:8080`: a scheme, a host, a port, nothing else. */
function isOrigin(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    !/[/?#]$/.test(text.replace(/^https?:\/\//, ''))
  );
}

/** The origin of an http(s) URL with no path (a trailing slash is allowed). */
function isBaseUrl(text: string): boolean {
  return isOrigin(text.replace(/\/$/, ''));
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const nonEmpty = z.string().trim().min(1);

const port = (fallback: number) =>
  variable(
    z.coerce.number().int().min(0).max(65535).default(fallback),
    'a TCP port 0-65535 (0 picks a free one)',
  );
const httpUrl = z.url({ protocol: /^https?$/ });
const redisUrl = z.url({ protocol: /^rediss?$/ });
const address = variable(nonEmpty, 'an address to listen on');
/** A password strangers could guess at: in containers it must be long. */
const longSecret = z.string().trim().min(12);

/** Every variable the station reads, by its environment name (DESIGN.md section 4). */
export const variables = {
  LOG_LEVEL: variable(z.enum(LOG_LEVELS).default('info'), `one of ${LOG_LEVELS.join(', ')}`),
  MUSIC_DIR: variable(nonEmpty.default('./music'), 'a folder path'),
  DATA_DIR: variable(nonEmpty.default('./data'), 'a folder path'),
  DATABASE_URL: variable(
    z
      .string()
      .trim()
      .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/),
    'sqlite:<file> or postgres://user:password@host:port/database',
  ),
  REDIS_URL: variable(redisUrl, 'a redis://host:port URL'),
  ADMIN_USER: variable(nonEmpty.default('admin'), 'a user name'),
  ADMIN_PASSWORD: variable(
    longSecret,
    'the admin password (stream /admin/, /metrics), 12 or more characters',
    true,
  ),
  SOURCE_PASSWORD: variable(
    longSecret,
    'the password of source clients (user "source"), 12 or more characters',
    true,
  ),
  SESSION_SECRET: variable(z.string().min(16), 'a random string of 16 or more characters', true),
  STREAM_HOST: variable(nonEmpty.default('0.0.0.0'), address.expects),
  STREAM_PORT: port(8000),
  STREAM_URL: variable(httpUrl.default('http://127.0.0.1:8000'), 'an http:// URL'),
  PUBLIC_STREAM_URL: variable(httpUrl, 'the http(s):// URL listeners use'),
  RELAY_FROM: variable(httpUrl, 'the http:// URL of the origin stream server this edge relays'),
  MAX_LISTENERS: variable(
    z.coerce.number().int().min(1).max(1_000_000),
    'listeners this node serves (1 or more) before it sends new ones on with a 302',
  ),
  MAX_CONNECTIONS_PER_CLIENT: variable(
    z.coerce.number().int().min(1).max(1_000_000).default(100),
    'connections one client address may hold open at once on the stream port, 1 or more (default 100)',
  ),
  HLS_SEGMENT_SECONDS: variable(
    z.coerce.number().int().min(1).max(10).default(2),
    'seconds of audio per HLS segment, 1 to 10',
  ),
  MAX_UPLOAD_MB: variable(
    z.coerce.number().int().min(1).max(100_000).default(500),
    'the largest upload in MB, 1 or more',
  ),
  TRASH_DAYS: variable(
    z.coerce.number().int().min(0).max(3650).default(30),
    'days a deleted file stays restorable, 0 to 3650',
  ),
  CONTROL_HOST: variable(nonEmpty.default('127.0.0.1'), address.expects),
  CONTROL_PORT: port(1234),
  LIVE_HOST: variable(nonEmpty.default('127.0.0.1'), address.expects),
  LIVE_PORT: port(8005),
  LIVE_URL: variable(httpUrl.default('http://127.0.0.1:8005'), 'an http:// URL'),
  LIVE_FADE_SECONDS: variable(
    z.coerce.number().min(0).max(10).default(1),
    'seconds the AutoDJ fades out when a DJ goes live, 0-10',
  ),
  LIVE_SILENCE_SECONDS: variable(
    z.coerce.number().min(2).max(300).default(15),
    'seconds a live DJ may stay below -50 dBFS before the AutoDJ takes over, 2-300',
  ),
  API_HOST: variable(nonEmpty.default('0.0.0.0'), address.expects),
  API_PORT: port(3000),
  API_URL: variable(httpUrl.default('http://127.0.0.1:3000'), 'an http:// URL'),
  WEB_HOST: variable(nonEmpty.default('0.0.0.0'), address.expects),
  WEB_PORT: port(8080),
  FFMPEG_PATH: variable(nonEmpty, 'the path of an ffmpeg binary'),
  CROSSFADE_SECONDS: variable(
    z.coerce.number().min(0).max(30).default(2),
    'seconds of crossfade between tracks, 0-30 (0 = gapless)',
  ),
  LOUDNESS_TARGET: variable(
    z
      .union([z.literal('off').transform(() => null), z.coerce.number().min(-30).max(-10)])
      .default(-16),
    'off, or the loudness every track is levelled to in LUFS, -30 to -10 (default -16)',
  ),
  DEAD_AIR_SECONDS: variable(
    z.coerce.number().min(2).max(300).default(10),
    'seconds of silence on air before the AutoDJ skips the track, 2-300',
  ),
  FALLBACK_FILE: variable(nonEmpty, 'an audio file played when nothing else can be'),
  STATION_TIMEZONE: variable(
    nonEmpty.default('UTC').refine(isTimeZone, 'not a time zone this runtime knows'),
    'an IANA time zone name such as Europe/Berlin (default UTC)',
  ),
  ARTIST_SEPARATION_MINUTES: variable(
    z.coerce.number().int().min(0).max(1440).default(30),
    'minutes before an artist plays again, 0-1440',
  ),
  TRACK_SEPARATION_MINUTES: variable(
    z.coerce.number().int().min(0).max(10080).default(180),
    'minutes before a track plays again, 0-10080',
  ),
  LISTENER_PRIVACY: variable(
    z.enum(['hashed', 'full', 'none']).default('hashed'),
    'hashed (salted hash of the address), full or none',
  ),
  TRUSTED_PROXIES: variable(
    commaList.refine(
      (list) => list.every(isTrustedProxyEntry),
      'one of them is not an address, CIDR or host name',
    ),
    'comma-separated addresses, CIDRs or host names (10.0.0.0/8,::1,caddy) of the proxies whose X-Forwarded-For, -Proto and -Host are believed',
  ),
  PUBLIC_URL: variable(
    z
      .string()
      .trim()
      .refine(isBaseUrl)
      .transform((text) => text.replace(/\/$/, '')),
    'the https:// (or http://) address the station is reached at, with no path: https://radio.example',
  ),
  ALLOWED_ORIGINS: variable(
    commaList.refine((list) => list.every(isOrigin)),
    'comma-separated origins (https://other.example) also allowed to send changes to the api',
  ),
  SETUP_CODE: variable(
    z.string().trim().min(8).max(64),
    'the one-time code that creates the first admin account, 8-64 characters',
    true,
  ),
  LISTENER_RETENTION_DAYS: variable(
    z.coerce.number().int().min(1).max(3650).default(400),
    'days listener sessions are kept before only their hourly sums remain, 1-3650',
  ),
  REGISTRATION: variable(z.enum(['open', 'closed']).default('open'), 'open or closed'),
  WEBHOOK_OFFLINE_SECONDS: variable(
    z.coerce.number().int().min(1).max(86_400).default(30),
    'whole seconds a mount may be without a source before webhooks send station.offline, 1-86400',
  ),
} as const;
