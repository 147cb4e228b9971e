import {
  type ConfigOf,
  listenerStreamBase,
  type MountQuality,
  STATION_MOUNTS,
  type streamSpec,
} from '@radio/core';
import { StreamConfigError } from './errors.ts';
import type { SessionRecorderOptions } from './sessions/session-recorder.ts';
import { SERVER_ID } from './version.ts';

/** One mount point. Unconfigured mounts are created when a source pushes to them. */
export interface MountOptions {
  /** `/radio.mp3`: starts with `/`. */
  path: string;
  /** `audio/mpeg`, `audio/aac` ... (what a source that sends none is taken to send). */
  contentType: string;
  /** Nominal kbit/s: `icy-br`, stats, the silence bitrate. */
  bitrate?: number;
  quality?: MountQuality;
  /**
   * `icy-name` and the other stream details. As in Icecast's mount configuration, a value set
   * here wins over what the source sends (`ice-name` ...); unset, the source's is used.
   */
  name?: string;
  description?: string;
  genre?: string;
  url?: string;
  /** `icy-pub`: listed in directories. */
  public?: boolean;
  /** Listener limit of this mount (overrides `maxListenersPerMount`). */
  maxListeners?: number;
  /** Where listeners go when the source leaves (Icecast's `fallback-mount`). */
  fallbackMount?: string;
  /** Listeners on the fallback come back when the source returns (`fallback-override`). */
  fallbackOverride?: boolean;
}

export interface StreamServerOptions {
  /** Address to listen on (default 0.0.0.0). */
  host?: string;
  /** Port (default 8000; 0 picks a free one). */
  port?: number;
  /**
   * The base URL listeners use (`listenurl` in stats, playlists); derived from host/port when
   * unset. PUBLIC_STREAM_URL, else PUBLIC_URL: behind a TLS proxy the mounts are on the
   * station's own origin.
   */
  publicUrl?: string;
  /** Default: `/radio.mp3`, `/radio.aac`, `/radio-low.mp3`. */
  mounts?: MountOptions[];
  /** Bytes a new listener gets at once (default 64 KiB). 0 disables the burst. */
  burstSize?: number;
  /** A listener further behind than this is dropped as slow (default 512 KiB). */
  queueLimit?: number;
  /** How long listeners stay with silence after their source left (default 10 s). */
  sourceGraceMs?: number;
  /** A source that sends nothing for this long is disconnected (default 10 s). */
  sourceTimeoutMs?: number;
  /** A listener whose peer accepts no data for this long is dropped (default 10 s). */
  stallTimeoutMs?: number;
  /** How often listeners are checked for stalls and kernel queues (default 2 s). */
  sweepIntervalMs?: number;
  /** Time to send a complete request head (default 15 s, Icecast's header-timeout). */
  headerTimeoutMs?: number;
  /** Audio per chunk handed to listeners (default 250 ms). */
  chunkMs?: number;
  /** Listeners of all mounts together (default: no limit). */
  maxListeners?: number;
  /** Listeners per mount unless the mount sets its own (default: no limit). */
  maxListenersPerMount?: number;
  /** Sources at once (default 32). */
  maxSources?: number;
  /** Pending connection queue of the listening socket (default 1024). */
  listenBacklog?: number;
  /**
   * Connections one client address may hold open at once (default 100): the TCP peer, or the
   * client a trusted proxy names. More are refused with 429, so one address cannot take every
   * socket the server has.
   */
  maxConnectionsPerClient?: number;
  adminUser: string;
  adminPassword: string;
  sourcePassword: string;
  /** Access and error logs go to `<dataDir>/logs/`; in memory only when unset. */
  dataDir?: string;
  /** A log file rotates at this size, 3 old ones kept (default 10 MiB). */
  logFileBytes?: number;
  /** `Server` header and `server_id` (default `Radio/<version> (Icecast compatible)`). */
  serverId?: string;
  /** `<host>` in stats (default: the host of the public URL). */
  hostname?: string;
  /** `<location>` and `<admin>` in stats. */
  location?: string;
  adminEmail?: string;
  /** The service configuration shown on the admin page (secrets already masked). */
  runningConfig?: Record<string, string | number | boolean | null>;
  /** Makes this server an edge: the origin whose mounts it relays (`http://host:port`). */
  relayFrom?: string;
  /** How often an edge asks its origin which mounts it has (default 5 s). */
  relayPollMs?: number;
  /** How often an edge reports its listeners; an origin forgets one silent 3 times as long (default 2 s). */
  edgeReportMs?: number;
  /** HLS segment length in seconds, 1–10 (default 2). */
  hlsSegmentSeconds?: number;
  /** HLS sessions tracked at most (default 100,000); bounds their memory. */
  hlsMaxSessions?: number;
  /** TRUSTED_PROXIES: addresses, CIDRs and host names whose X-Forwarded-For names the client. */
  trustedProxies?: readonly string[];
  /** Finished listener sessions kept while the api is away; beyond, the oldest go (default 100,000). */
  sessionBufferSize?: number;
  /** Sends finished listener sessions to the api over the bus (default true; the bench turns it off). */
  recordSessions?: boolean;
}

/**
 * The options the environment sets (the rest keep their defaults). The running configuration
 * shown on the admin page is the caller's: the stream's own variables alone, or all of
 * embedded mode's.
 */
export function streamOptionsFromConfig(
  config: Pick<
    ConfigOf<typeof streamSpec>,
    | 'STREAM_HOST'
    | 'STREAM_PORT'
    | 'PUBLIC_STREAM_URL'
    | 'PUBLIC_URL'
    | 'ADMIN_USER'
    | 'ADMIN_PASSWORD'
    | 'SOURCE_PASSWORD'
    | 'DATA_DIR'
    | 'RELAY_FROM'
    | 'MAX_LISTENERS'
    | 'MAX_CONNECTIONS_PER_CLIENT'
    | 'HLS_SEGMENT_SECONDS'
    | 'TRUSTED_PROXIES'
  >,
): StreamServerOptions {
  const publicUrl = listenerStreamBase(config.PUBLIC_STREAM_URL, config.PUBLIC_URL);
  return {
    host: config.STREAM_HOST,
    port: config.STREAM_PORT,
    ...(publicUrl ? { publicUrl } : {}),
    adminUser: config.ADMIN_USER,
    adminPassword: config.ADMIN_PASSWORD,
    sourcePassword: config.SOURCE_PASSWORD,
    dataDir: config.DATA_DIR,
    ...(config.RELAY_FROM ? { relayFrom: config.RELAY_FROM } : {}),
    ...(config.MAX_LISTENERS ? { maxListeners: config.MAX_LISTENERS } : {}),
    maxConnectionsPerClient: config.MAX_CONNECTIONS_PER_CLIENT,
    hlsSegmentSeconds: config.HLS_SEGMENT_SECONDS,
    trustedProxies: config.TRUSTED_PROXIES,
  };
}

/**
 * The station's mounts (core's table). Names and descriptions come from the encoders (their
 * `ice-*` headers), so they are not fixed here.
 */
export const DEFAULT_MOUNTS: readonly MountOptions[] = STATION_MOUNTS.map((mount) => ({
  path: mount.path,
  contentType: mount.contentType,
  bitrate: mount.bitrate,
  quality: mount.quality,
}));

/** A mount's settings with every default applied. */
export interface MountConfig {
  path: string;
  contentType: string;
  bitrate: number | null;
  quality: MountQuality | null;
  name: string | null;
  description: string | null;
  genre: string | null;
  url: string | null;
  public: boolean | null;
  maxListeners: number | null;
  fallbackMount: string | null;
  fallbackOverride: boolean;
  /** From the options (false: created by a source on an unconfigured mount). */
  configured: boolean;
}

export interface ResolvedOptions {
  host: string;
  port: number;
  publicUrl: string | null;
  mounts: MountConfig[];
  burstSize: number;
  queueLimit: number;
  sourceGraceMs: number;
  sourceTimeoutMs: number;
  stallTimeoutMs: number;
  sweepIntervalMs: number;
  headerTimeoutMs: number;
  chunkMs: number;
  maxListeners: number | null;
  maxListenersPerMount: number | null;
  maxSources: number;
  listenBacklog: number;
  maxConnectionsPerClient: number;
  adminUser: string;
  adminPassword: string;
  sourcePassword: string;
  dataDir: string | null;
  logFileBytes: number;
  serverId: string;
  hostname: string | null;
  location: string;
  adminEmail: string;
  runningConfig: Record<string, string | number | boolean | null> | null;
  relayFrom: string | null;
  relayPollMs: number;
  edgeReportMs: number;
  /** HLS of the AAC mounts: segment seconds, playlist window, session cap. */
  hls: { segmentSeconds: number; windowSize: number; maxSessions: number };
  trustedProxies: readonly string[];
  /** How finished listener sessions go to the api (see SessionRecorder). */
  sessions: SessionRecorderOptions;
}

/** A mount path a source or listener may use: `/` then printable characters, no `..`. */
export function isValidMountPath(path: string): boolean {
  return (
    /^\/[^\s?#\\\p{Cc}]{1,200}$/u.test(path) &&
    !path.split('/').includes('..') &&
    path !== '/admin' &&
    !path.startsWith('/admin/')
  );
}

function integer(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new StreamConfigError(
      `${name} must be an integer from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

function optionalLimit(name: string, value: unknown): number | null {
  return value === undefined ? null : integer(name, value, 0, 0, 1_000_000);
}

function text(name: string, value: unknown, fallback: string | null): string | null {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw new StreamConfigError(`${name} must be a string`);
  return value;
}

function stringList(name: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((each) => typeof each !== 'string')) {
    throw new StreamConfigError(`${name} must be a list of strings`);
  }
  return value as string[];
}

function secret(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new StreamConfigError(`${name} is required`);
  }
  return value;
}

export function resolveMount(mount: MountOptions, index: number): MountConfig {
  const where = `mounts[${index}]`;
  if (typeof mount?.path !== 'string' || !isValidMountPath(mount.path)) {
    throw new StreamConfigError(`${where}.path must be a mount path like /radio.mp3`);
  }
  if (typeof mount.contentType !== 'string' || !/^[\w.+-]+\/[\w.+-]+/.test(mount.contentType)) {
    throw new StreamConfigError(`${where}.contentType must be a MIME type like audio/mpeg`);
  }
  if (mount.fallbackMount !== undefined && !isValidMountPath(mount.fallbackMount)) {
    throw new StreamConfigError(`${where}.fallbackMount must be a mount path`);
  }
  if (mount.quality !== undefined && mount.quality !== 'high' && mount.quality !== 'low') {
    throw new StreamConfigError(`${where}.quality must be "high" or "low"`);
  }
  return {
    path: mount.path,
    contentType: mount.contentType,
    bitrate:
      mount.bitrate === undefined ? null : integer(`${where}.bitrate`, mount.bitrate, 0, 1, 10_000),
    quality: mount.quality ?? null,
    name: text(`${where}.name`, mount.name, null),
    description: text(`${where}.description`, mount.description, null),
    genre: text(`${where}.genre`, mount.genre, null),
    url: text(`${where}.url`, mount.url, null),
    public: mount.public ?? null,
    maxListeners: optionalLimit(`${where}.maxListeners`, mount.maxListeners),
    fallbackMount: mount.fallbackMount ?? null,
    fallbackOverride: mount.fallbackOverride ?? true,
    configured: true,
  };
}

function httpUrl(name: string, value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^https?:\/\//.test(value) || !URL.canParse(value)) {
    throw new StreamConfigError(`${name} must be an http(s):// URL`);
  }
  return value;
}

/** Checks the options and applies the defaults; throws StreamConfigError naming the bad one. */
export function resolveOptions(options: StreamServerOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new StreamConfigError('createStreamServer: options are required');
  }
  const mounts = (options.mounts ?? DEFAULT_MOUNTS).map(resolveMount);
  const paths = new Set<string>();
  for (const mount of mounts) {
    if (paths.has(mount.path))
      throw new StreamConfigError(`mount ${mount.path} is configured twice`);
    paths.add(mount.path);
  }
  for (const mount of mounts) {
    if (mount.fallbackMount === mount.path) {
      throw new StreamConfigError(`mount ${mount.path} cannot be its own fallback`);
    }
  }
  if (options.publicUrl !== undefined && !URL.canParse(options.publicUrl)) {
    throw new StreamConfigError('publicUrl must be an http(s):// URL');
  }
  const headerTimeoutMs = integer('headerTimeoutMs', options.headerTimeoutMs, 15_000, 100, 600_000);
  return {
    host: text('host', options.host, '0.0.0.0') as string,
    port: integer('port', options.port, 8000, 0, 65535),
    publicUrl: options.publicUrl?.replace(/\/+$/, '') ?? null,
    mounts,
    burstSize: integer('burstSize', options.burstSize, 65536, 0, 16 * 1024 * 1024),
    queueLimit: integer('queueLimit', options.queueLimit, 524288, 4096, 256 * 1024 * 1024),
    sourceGraceMs: integer('sourceGraceMs', options.sourceGraceMs, 10_000, 0, 3_600_000),
    sourceTimeoutMs: integer('sourceTimeoutMs', options.sourceTimeoutMs, 10_000, 100, 3_600_000),
    stallTimeoutMs: integer('stallTimeoutMs', options.stallTimeoutMs, 10_000, 100, 3_600_000),
    sweepIntervalMs: integer('sweepIntervalMs', options.sweepIntervalMs, 2000, 50, 600_000),
    headerTimeoutMs,
    chunkMs: integer('chunkMs', options.chunkMs, 250, 10, 2000),
    maxListeners: optionalLimit('maxListeners', options.maxListeners),
    maxListenersPerMount: optionalLimit('maxListenersPerMount', options.maxListenersPerMount),
    maxSources: integer('maxSources', options.maxSources, 32, 0, 10_000),
    listenBacklog: integer('listenBacklog', options.listenBacklog, 1024, 1, 65535),
    maxConnectionsPerClient: integer(
      'maxConnectionsPerClient',
      options.maxConnectionsPerClient,
      100,
      1,
      1_000_000,
    ),
    adminUser: secret('adminUser', options.adminUser),
    adminPassword: secret('adminPassword', options.adminPassword),
    sourcePassword: secret('sourcePassword', options.sourcePassword),
    dataDir: text('dataDir', options.dataDir, null),
    logFileBytes: integer('logFileBytes', options.logFileBytes, 10 * 1024 * 1024, 4096, 2 ** 40),
    serverId: text('serverId', options.serverId, SERVER_ID) as string,
    hostname: text('hostname', options.hostname, null),
    location: text('location', options.location, 'Earth') as string,
    adminEmail: text('adminEmail', options.adminEmail, 'admin@localhost') as string,
    runningConfig: options.runningConfig ?? null,
    relayFrom: httpUrl('relayFrom', options.relayFrom),
    relayPollMs: integer('relayPollMs', options.relayPollMs, 5000, 100, 600_000),
    edgeReportMs: integer('edgeReportMs', options.edgeReportMs, 2000, 100, 600_000),
    hls: {
      segmentSeconds: integer('hlsSegmentSeconds', options.hlsSegmentSeconds, 2, 1, 10),
      windowSize: 6,
      maxSessions: integer('hlsMaxSessions', options.hlsMaxSessions, 100_000, 1, 10_000_000),
    },
    trustedProxies: stringList('trustedProxies', options.trustedProxies),
    sessions: {
      enabled: options.recordSessions !== false,
      bufferSize: integer('sessionBufferSize', options.sessionBufferSize, 100_000, 1, 10_000_000),
      batchSize: 1000,
      flushMs: 2000,
      retryMs: 1000,
      retryMaxMs: 10_000,
      requestTimeoutMs: 10_000,
      closeTimeoutMs: 2000,
    },
  };
}
