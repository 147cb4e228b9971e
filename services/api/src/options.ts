import type { apiSpec, ConfigOf } from '@radio/core';
import { DEFAULT_SCRYPT_COST, isTrustedProxyEntry, listenerStreamBase } from '@radio/core';
import {
  type AudienceOptions,
  type ResolvedAudienceOptions,
  resolveAudienceOptions,
} from './audience/options.ts';
import type { LimitRule } from './auth/rate-limiter.ts';
import { originOf } from './http/station-origins.ts';
import {
  type ResolvedWebhookOptions,
  resolveWebhookOptions,
  type WebhookOptions,
} from './webhooks/options.ts';

export interface ApiOptions {
  /** Address to listen on. Default 127.0.0.1. */
  host?: string | undefined;
  /** Port to listen on; 0 (the default) picks a free one (see `Api.port`). */
  port?: number | undefined;
  /** Signs the session cookie; 16+ characters. Several: the first signs, all verify (rotation). */
  sessionSecret: string | readonly string[];
  /** How the api reaches the stream server (health, Icecast stats). */
  streamUrl: string;
  /** What listeners are told; `streamUrl` when unset. */
  publicStreamUrl?: string | undefined;
  /** MUSIC_DIR: track paths are relative to it; uploads, tag edits and moves write in it. */
  musicDir: string;
  /** DATA_DIR: the api's own files (the library's trash; unfinished uploads are in MUSIC_DIR/.uploads). */
  dataDir: string;
  /** MAX_UPLOAD_MB in bytes: a larger upload is refused with 413. Default 500 MB. */
  maxUploadBytes?: number | undefined;
  /** TRASH_DAYS: how long a deleted file stays restorable. Default 30. */
  trashDays?: number | undefined;
  /** FFMPEG_PATH: probes and hashes uploads; else ffmpeg on PATH (see @radio/core locateFfmpeg). */
  ffmpegPath?: string | undefined;
  /**
   * TRUSTED_PROXIES: addresses, CIDRs or host names of the proxies whose X-Forwarded-For, -Proto
   * and -Host are believed (host names are looked up at start and kept fresh). Default none.
   */
  trustedProxies?: readonly string[] | undefined;
  /**
   * PUBLIC_URL: the origin browsers reach the station at (`https://radio.example`). Changes
   * are taken from pages of this origin (else from the request's own) and strangers reach the
   * api under its host name.
   */
  publicUrl?: string | undefined;
  /** Whether POST /auth/register accepts new accounts (always as listeners). Default true. */
  registrationOpen?: boolean | undefined;
  /** An admin account created when the station has no user at all (ADMIN_USER/ADMIN_PASSWORD). */
  bootstrapAdmin?: { username: string; password: string } | undefined;
  /**
   * SETUP_CODE: what creates the first admin (POST /auth/setup) while there is none. Unset: one
   * is generated, kept in the database until used, and printed at every start till then.
   */
  setupCode?: string | undefined;
  /** Who may read GET /metrics (ADMIN_USER/ADMIN_PASSWORD); unset: /metrics answers 404. */
  metricsLogin?: { user: string; password: string } | undefined;
  /** ALLOWED_ORIGINS: origins besides the station's own allowed to send changes. */
  allowedOrigins?: readonly string[] | undefined;
  cookie?:
    | {
        name?: string | undefined;
        /** 'auto' (default): Secure when the request came over HTTPS. */
        secure?: boolean | 'auto' | undefined;
        sameSite?: 'lax' | 'strict' | undefined;
        /** Inactivity after which a session ends (ms; rolling). Default 7 days. */
        maxAgeMs?: number | undefined;
      }
    | undefined;
  /** Where sessions live: Redis when `deps.redis` is given, else the database. */
  sessionStore?: 'redis' | 'db' | undefined;
  /** Prefix of the api's Redis keys (sessions, rate limits). Default `radio:`. */
  redisPrefix?: string | undefined;
  /** Largest accepted JSON body. Default 100kb. */
  bodyLimit?: string | number | undefined;
  /** How long a command waits for the scheduler before the route answers 503 (ms). Default 3000. */
  commandTimeoutMs?: number | undefined;
  health?: { timeoutMs?: number | undefined; cacheMs?: number | undefined } | undefined;
  limits?:
    | {
        /** Failed logins per client (successes are not counted). Default 30 in 15 minutes. */
        loginPerIp?: LimitRule | undefined;
        /** Failed logins per account; a success starts again. Default 10 in 15 minutes. */
        loginPerUser?: LimitRule | undefined;
        /** Registrations per client. Default 10 an hour. */
        registerPerIp?: LimitRule | undefined;
        /** Wrong setup codes per client. Default 10 in 15 minutes. */
        setupPerIp?: LimitRule | undefined;
      }
    | undefined;
  events?:
    | {
        heartbeatMs?: number | undefined;
        maxClients?: number | undefined;
        /** Event streams one client address may hold open at once. Default 16. */
        maxPerClient?: number | undefined;
        retryMs?: number | undefined;
      }
    | undefined;
  /** See TrackIndex: how often a search may check the library for changes (ms). Default 5000. */
  trackIndexRefreshMs?: number | undefined;
  /**
   * How long a request may use a session's user (and, in the database session store, the
   * session row) as this process last read it, instead of reading it again (ms). Changes made
   * through any api process apply at once; this bounds changes made in the database by hand.
   * Default 5000.
   */
  sessionCacheMs?: number | undefined;
  /**
   * log2 of scrypt's N for new password hashes; a cheaper stored hash is replaced at its next
   * login. Default DEFAULT_SCRYPT_COST (17).
   */
  scryptCost?: number | undefined;
  /** Webhook delivery and event settings (WEBHOOK_OFFLINE_SECONDS); see WebhookOptions. */
  webhooks?: WebhookOptions | undefined;
  /** LIVE_URL: the scheduler's live input, where the browser's go-live is relayed. */
  liveUrl?: string | undefined;
  /** Listener sessions: LISTENER_PRIVACY, LISTENER_RETENTION_DAYS and the job's interval. */
  audience?: AudienceOptions | undefined;
  /** STATION_TIMEZONE: the IANA zone schedules are written in. Default UTC. */
  stationTimezone?: string | undefined;
  /** ARTIST_SEPARATION_MINUTES: a request refused when its artist played this recently. Default 30. */
  artistSeparationMinutes?: number | undefined;
  /** TRACK_SEPARATION_MINUTES: a request refused when its track played this recently. Default 180. */
  trackSeparationMinutes?: number | undefined;
}

export interface CookieSettings {
  name: string;
  secure: boolean | 'auto';
  sameSite: 'lax' | 'strict';
  maxAgeMs: number;
}

/** The options with every default applied, checked. */
export interface ResolvedApiOptions {
  host: string;
  port: number;
  /** The first signs, all verify. */
  sessionSecrets: string[];
  streamUrl: string;
  publicStreamUrl: string | undefined;
  musicDir: string;
  dataDir: string;
  maxUploadBytes: number;
  trashDays: number;
  ffmpegPath: string | undefined;
  trustedProxies: readonly string[];
  /** An origin (`originOf`). */
  publicUrl: string | undefined;
  registrationOpen: boolean;
  bootstrapAdmin: { username: string; password: string } | undefined;
  setupCode: string | undefined;
  metricsLogin: { user: string; password: string } | undefined;
  /** Origins (`originOf`). */
  allowedOrigins: readonly string[];
  cookie: CookieSettings;
  sessionStore: 'redis' | 'db';
  redisPrefix: string;
  bodyLimit: string | number;
  commandTimeoutMs: number;
  health: { timeoutMs: number; cacheMs: number };
  limits: {
    loginPerIp: LimitRule;
    loginPerUser: LimitRule;
    registerPerIp: LimitRule;
    setupPerIp: LimitRule;
  };
  events: { heartbeatMs: number; maxClients: number; maxPerClient: number; retryMs: number };
  trackIndexRefreshMs: number;
  sessionCacheMs: number;
  scryptCost: number;
  webhooks: ResolvedWebhookOptions;
  liveUrl: string;
  audience: ResolvedAudienceOptions;
  programming: ProgrammingOptions;
}

/** What schedules and listener requests are checked against. */
export interface ProgrammingOptions {
  timeZone: string;
  artistSeparationMinutes: number;
  trackSeparationMinutes: number;
}

const MB = 1024 * 1024;
const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

function sessionSecretsOf(secret: ApiOptions['sessionSecret']): string[] {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!secrets?.length || secrets.some((each) => typeof each !== 'string' || each.length < 16)) {
    throw new TypeError(
      'createApi: sessionSecret must be one or more strings of 16 or more characters',
    );
  }
  return [...secrets];
}

function checkUrls(options: ApiOptions): void {
  for (const [name, url] of [
    ['streamUrl', options.streamUrl],
    ['publicStreamUrl', options.publicStreamUrl],
    ['liveUrl', options.liveUrl],
  ] as const) {
    if (url === undefined && name !== 'streamUrl') continue;
    if (!URL.canParse(url ?? '')) throw new TypeError(`createApi: ${name} is not a URL: ${url}`);
  }
}

/** The proxies, origins and setup code, checked; origins normalized (`originOf`). */
function addressesOf(
  options: ApiOptions,
): Pick<ResolvedApiOptions, 'trustedProxies' | 'publicUrl' | 'allowedOrigins' | 'setupCode'> {
  const trustedProxies = options.trustedProxies ?? [];
  const bad = trustedProxies.find((entry) => !isTrustedProxyEntry(entry.trim()));
  if (bad !== undefined) {
    throw new TypeError(`createApi: trustedProxies: "${bad}" is not an address, CIDR or host name`);
  }
  const origin = (text: string, name: string) => {
    const result = originOf(text);
    if (result === null) throw new TypeError(`createApi: ${name} is not an origin: ${text}`);
    return result;
  };
  const setupCode = options.setupCode?.trim();
  if (setupCode !== undefined && (setupCode.length < 8 || setupCode.length > 64)) {
    throw new TypeError('createApi: setupCode must be 8-64 characters');
  }
  return {
    trustedProxies: trustedProxies.map((entry) => entry.trim()),
    publicUrl: options.publicUrl === undefined ? undefined : origin(options.publicUrl, 'publicUrl'),
    allowedOrigins: (options.allowedOrigins ?? []).map((each) => origin(each, 'allowedOrigins')),
    setupCode,
  };
}

function eventsOf(events: ApiOptions['events']): ResolvedApiOptions['events'] {
  const maxPerClient = events?.maxPerClient ?? 16;
  if (!Number.isInteger(maxPerClient) || maxPerClient < 1) {
    throw new TypeError(`createApi: events.maxPerClient must be 1 or more, got ${maxPerClient}`);
  }
  return {
    heartbeatMs: events?.heartbeatMs ?? 15_000,
    maxClients: events?.maxClients ?? 1000,
    maxPerClient,
    retryMs: events?.retryMs ?? 3000,
  };
}

function sessionStoreOf(options: ApiOptions, withRedis: boolean): 'redis' | 'db' {
  if (options.sessionStore === 'redis' && !withRedis) {
    throw new TypeError('createApi: sessionStore "redis" needs deps.redis');
  }
  return options.sessionStore ?? (withRedis ? 'redis' : 'db');
}

/**
 * Checks the options and applies every default. `withRedis`: whether the api was given a
 * Redis client, where sessions then live unless the options say otherwise.
 */
export function resolveApiOptions(options: ApiOptions, withRedis: boolean): ResolvedApiOptions {
  const sessionSecrets = sessionSecretsOf(options.sessionSecret);
  checkUrls(options);
  if (!options.musicDir) throw new TypeError('createApi: musicDir is required');
  if (!options.dataDir) throw new TypeError('createApi: dataDir is required');
  const sessionStore = sessionStoreOf(options, withRedis);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new TypeError(`createApi: port must be 0-65535, got ${port}`);
  }
  const { cookie, health, limits } = options;
  return {
    ...addressesOf(options),
    host: options.host ?? '127.0.0.1',
    port,
    sessionSecrets,
    streamUrl: options.streamUrl,
    publicStreamUrl: options.publicStreamUrl,
    musicDir: options.musicDir,
    dataDir: options.dataDir,
    maxUploadBytes: options.maxUploadBytes ?? 500 * MB,
    trashDays: options.trashDays ?? 30,
    ffmpegPath: options.ffmpegPath,
    registrationOpen: options.registrationOpen ?? true,
    bootstrapAdmin: options.bootstrapAdmin,
    metricsLogin: options.metricsLogin,
    cookie: {
      name: cookie?.name ?? 'radio.sid',
      secure: cookie?.secure ?? 'auto',
      sameSite: cookie?.sameSite ?? 'lax',
      maxAgeMs: cookie?.maxAgeMs ?? 7 * DAY_MS,
    },
    sessionStore,
    redisPrefix: options.redisPrefix ?? 'radio:',
    bodyLimit: options.bodyLimit ?? '100kb',
    commandTimeoutMs: options.commandTimeoutMs ?? 3000,
    health: { timeoutMs: health?.timeoutMs ?? 1500, cacheMs: health?.cacheMs ?? 2000 },
    limits: {
      loginPerIp: limits?.loginPerIp ?? { max: 30, windowMs: 15 * MINUTE_MS },
      loginPerUser: limits?.loginPerUser ?? { max: 10, windowMs: 15 * MINUTE_MS },
      registerPerIp: limits?.registerPerIp ?? { max: 10, windowMs: 60 * MINUTE_MS },
      setupPerIp: limits?.setupPerIp ?? { max: 10, windowMs: 15 * MINUTE_MS },
    },
    events: eventsOf(options.events),
    trackIndexRefreshMs: options.trackIndexRefreshMs ?? 5000,
    sessionCacheMs: options.sessionCacheMs ?? 5000,
    scryptCost: options.scryptCost ?? DEFAULT_SCRYPT_COST,
    webhooks: resolveWebhookOptions(options.webhooks),
    liveUrl: options.liveUrl ?? 'http://127.0.0.1:8005',
    audience: resolveAudienceOptions(options.audience),
    programming: programmingOf(options),
  };
}

function programmingOf(options: ApiOptions): ProgrammingOptions {
  const timeZone = options.stationTimezone ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new TypeError(`createApi: stationTimezone is not a time zone: ${timeZone}`);
  }
  const minutes = (name: string, value: number | undefined, fallback: number, max: number) => {
    const result = value ?? fallback;
    if (!Number.isInteger(result) || result < 0 || result > max) {
      throw new TypeError(`createApi: ${name} must be 0-${max} minutes, got ${value}`);
    }
    return result;
  };
  return {
    timeZone,
    artistSeparationMinutes: minutes(
      'artistSeparationMinutes',
      options.artistSeparationMinutes,
      30,
      1440,
    ),
    trackSeparationMinutes: minutes(
      'trackSeparationMinutes',
      options.trackSeparationMinutes,
      180,
      10_080,
    ),
  };
}

/**
 * The options the environment sets, for main.ts and the embedded launcher; the rest keep
 * their defaults.
 */
export function apiOptionsFromConfig(
  config: Pick<
    ConfigOf<typeof apiSpec>,
    | 'API_HOST'
    | 'API_PORT'
    | 'SESSION_SECRET'
    | 'STREAM_URL'
    | 'PUBLIC_STREAM_URL'
    | 'MUSIC_DIR'
    | 'DATA_DIR'
    | 'MAX_UPLOAD_MB'
    | 'TRASH_DAYS'
    | 'TRUSTED_PROXIES'
    | 'PUBLIC_URL'
    | 'ALLOWED_ORIGINS'
    | 'SETUP_CODE'
    | 'REGISTRATION'
    | 'ADMIN_USER'
    | 'ADMIN_PASSWORD'
  > &
    Partial<Pick<ConfigOf<typeof apiSpec>, 'LISTENER_PRIVACY' | 'LISTENER_RETENTION_DAYS'>> &
    Partial<
      Pick<
        ConfigOf<typeof apiSpec>,
        | 'FFMPEG_PATH'
        | 'LIVE_URL'
        | 'STATION_TIMEZONE'
        | 'ARTIST_SEPARATION_MINUTES'
        | 'TRACK_SEPARATION_MINUTES'
        | 'WEBHOOK_OFFLINE_SECONDS'
      >
    >,
): ApiOptions {
  return {
    host: config.API_HOST,
    port: config.API_PORT,
    sessionSecret: config.SESSION_SECRET,
    streamUrl: config.STREAM_URL,
    publicStreamUrl: listenerStreamBase(config.PUBLIC_STREAM_URL, config.PUBLIC_URL),
    musicDir: config.MUSIC_DIR,
    dataDir: config.DATA_DIR,
    maxUploadBytes: config.MAX_UPLOAD_MB * MB,
    trashDays: config.TRASH_DAYS,
    ffmpegPath: config.FFMPEG_PATH,
    liveUrl: config.LIVE_URL,
    audience: {
      privacy: config.LISTENER_PRIVACY,
      retentionDays: config.LISTENER_RETENTION_DAYS,
    },
    stationTimezone: config.STATION_TIMEZONE,
    artistSeparationMinutes: config.ARTIST_SEPARATION_MINUTES,
    trackSeparationMinutes: config.TRACK_SEPARATION_MINUTES,
    webhooks:
      config.WEBHOOK_OFFLINE_SECONDS === undefined
        ? undefined
        : { offlineAfterMs: config.WEBHOOK_OFFLINE_SECONDS * 1000 },
    trustedProxies: config.TRUSTED_PROXIES,
    publicUrl: config.PUBLIC_URL,
    allowedOrigins: config.ALLOWED_ORIGINS,
    setupCode: config.SETUP_CODE,
    registrationOpen: config.REGISTRATION === 'open',
    // Registering never makes an admin. A closed station gets its first admin from
    // ADMIN_USER / ADMIN_PASSWORD; an open one from whoever enters the setup code.
    bootstrapAdmin:
      config.REGISTRATION === 'closed'
        ? { username: config.ADMIN_USER, password: config.ADMIN_PASSWORD }
        : undefined,
    metricsLogin: { user: config.ADMIN_USER, password: config.ADMIN_PASSWORD },
  };
}
