import { resolve } from 'node:path';
import { type ConfigOf, STATION_MOUNTS, type StationMount, type schedulerSpec } from '@radio/core';
import { SchedulerError } from './errors.ts';
import type { SchedulerMetrics } from './metrics/scheduler-metrics.ts';
import type { StationInfo } from './outputs/mount-output.ts';

export interface SchedulerOptions {
  /** MUSIC_DIR. */
  musicDir: string;
  /** STREAM_URL: where the stream server takes sources (`http://host:port`). */
  streamUrl: string;
  /** SOURCE_PASSWORD (user `source`). */
  sourcePassword: string;
  /** ADMIN_USER / ADMIN_PASSWORD: tried for title updates the source login may not do. */
  admin?: { user: string; password: string } | undefined;
  /** CONTROL_HOST (default 127.0.0.1). */
  controlHost?: string;
  /** CONTROL_PORT (default 1234; 0 picks a free port, see `controlPort`). */
  controlPort?: number;
  /** CROSSFADE_SECONDS (default 2; 0 = gapless). */
  crossfadeSeconds?: number;
  /** LOUDNESS_TARGET: LUFS, −30 to −10 (default −16); null = off, tracks play as mastered. */
  loudnessTarget?: number | null;
  /** FFMPEG_PATH; located like DESIGN.md says when unset. */
  ffmpegPath?: string | undefined;
  /** What the `ice-*` headers say. */
  station?: Partial<StationInfo>;
  /** The outputs (default: the three of DESIGN.md). */
  mounts?: readonly StationMount[];
  /** Watch MUSIC_DIR for changes (default true). */
  watch?: boolean;
  control?: { maxClients?: number; maxLineBytes?: number; idleTimeoutMs?: number };
  /** Reconnect delay bounds towards the stream server (default 250 ms doubling to 2 s). */
  reconnectBackoffMs?: { min: number; max: number };
  /** The playout clock's wake-up interval (default 50 ms). */
  clockIntervalMs?: number;
  /** DEAD_AIR_SECONDS: silence on air longer than this skips the track (2-300, default 10). */
  deadAirSeconds?: number;
  /** FALLBACK_FILE: looped when nothing else can play (default: a generated station-ID chime). */
  fallbackFile?: string | undefined;
  /** DATA_DIR: live shows are recorded under its `recordings/` (unset: not recorded). */
  dataDir?: string | undefined;
  /** The live input (unset: no live port). */
  live?: LiveOptions | undefined;
  /** STATION_TIMEZONE: the IANA zone schedules are written in (default UTC). */
  timeZone?: string;
  /** ARTIST_SEPARATION_MINUTES: no artist again within this (0-1440, default 30). */
  artistSeparationMinutes?: number;
  /** TRACK_SEPARATION_MINUTES: no track again within this (0-10080, default 180). */
  trackSeparationMinutes?: number;
}

export interface LiveOptions {
  /** LIVE_HOST (default 127.0.0.1). */
  host?: string;
  /** LIVE_PORT (default 8005; 0 picks a free port). */
  port?: number;
  /** LIVE_FADE_SECONDS: the AutoDJ's fade at each handover (0-10, default 1). */
  fadeSeconds?: number;
  /** LIVE_SILENCE_SECONDS: a DJ silent this long hands back to the AutoDJ (2-300, default 15). */
  silenceSeconds?: number;
  /** A source that sends nothing for this long is dropped (default 10 s, as Icecast). */
  idleTimeoutMs?: number;
  /** A request head must be complete within this (default 10 s). */
  headerTimeoutMs?: number;
  /** Failed source logins per address before 429 (default 10 in 10 minutes). */
  loginLimit?: { maxFailures: number; windowMs: number };
  /**
   * The scheduler's Prometheus metrics: the live port is its one HTTP port, so GET /metrics is
   * served there (a scheduler without a live input has none).
   */
  metrics?: SchedulerMetrics | undefined;
}

export type ResolvedLiveOptions = Required<Omit<LiveOptions, 'loginLimit' | 'metrics'>> &
  Pick<LiveOptions, 'loginLimit' | 'metrics'>;

export const DEFAULT_STATION: StationInfo = {
  name: 'Radio',
  description: 'Internet radio',
  genre: 'Various',
  url: '',
  public: false,
};

export interface ResolvedOptions {
  musicDir: string;
  streamUrl: URL;
  sourcePassword: string;
  admin: { user: string; password: string } | undefined;
  controlHost: string;
  controlPort: number;
  crossfadeSeconds: number;
  loudnessTarget: number | null;
  ffmpegPath: string | undefined;
  station: StationInfo;
  mounts: readonly StationMount[];
  watch: boolean;
  control: { maxClients?: number; maxLineBytes?: number; idleTimeoutMs?: number };
  reconnectBackoffMs: { min: number; max: number } | undefined;
  clockIntervalMs: number;
  deadAirSeconds: number;
  /** Absolute. */
  fallbackFile: string | undefined;
  dataDir: string | undefined;
  live: ResolvedLiveOptions | null;
  programming: ProgrammingOptions;
}

/** How the planner programmes the station: its clock's zone and the separation rules. */
export interface ProgrammingOptions {
  timeZone: string;
  artistSeparationMinutes: number;
  trackSeparationMinutes: number;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function resolveProgramming(options: SchedulerOptions): ProgrammingOptions {
  const timeZone = options.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone)) throw invalid(`timeZone must be an IANA time zone, got ${timeZone}`);
  const artistSeparationMinutes = options.artistSeparationMinutes ?? 30;
  if (
    !Number.isInteger(artistSeparationMinutes) ||
    artistSeparationMinutes < 0 ||
    artistSeparationMinutes > 1440
  ) {
    throw invalid(`artistSeparationMinutes must be 0-1440, got ${artistSeparationMinutes}`);
  }
  const trackSeparationMinutes = options.trackSeparationMinutes ?? 180;
  if (
    !Number.isInteger(trackSeparationMinutes) ||
    trackSeparationMinutes < 0 ||
    trackSeparationMinutes > 10_080
  ) {
    throw invalid(`trackSeparationMinutes must be 0-10080, got ${trackSeparationMinutes}`);
  }
  return { timeZone, artistSeparationMinutes, trackSeparationMinutes };
}

function resolveLive(live: LiveOptions | undefined): ResolvedLiveOptions | null {
  if (!live) return null;
  const resolved = {
    host: live.host ?? '127.0.0.1',
    port: live.port ?? 8005,
    fadeSeconds: live.fadeSeconds ?? 1,
    silenceSeconds: live.silenceSeconds ?? 15,
    idleTimeoutMs: live.idleTimeoutMs ?? 10_000,
    headerTimeoutMs: live.headerTimeoutMs ?? 10_000,
    loginLimit: live.loginLimit,
    metrics: live.metrics,
  };
  if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65_535) {
    throw invalid(`live.port must be 0-65535, got ${resolved.port}`);
  }
  if (!(resolved.fadeSeconds >= 0 && resolved.fadeSeconds <= 10)) {
    throw invalid(`live.fadeSeconds must be 0-10, got ${resolved.fadeSeconds}`);
  }
  if (!(resolved.silenceSeconds >= 2 && resolved.silenceSeconds <= 300)) {
    throw invalid(`live.silenceSeconds must be 2-300, got ${resolved.silenceSeconds}`);
  }
  return resolved;
}

function invalid(message: string): SchedulerError {
  return new SchedulerError('SCHEDULER_INVALID_OPTIONS', `createScheduler: ${message}`);
}

/** Checks the options up front (a bad value fails at start, not at the first track). */
export function resolveOptions(options: SchedulerOptions): ResolvedOptions {
  if (!options || typeof options !== 'object') throw invalid('options are required');
  if (typeof options.musicDir !== 'string' || !options.musicDir.trim()) {
    throw invalid('musicDir is required');
  }
  let streamUrl: URL;
  try {
    streamUrl = new URL(options.streamUrl);
  } catch {
    throw invalid(`streamUrl must be an http:// URL, got ${String(options.streamUrl)}`);
  }
  if (streamUrl.protocol !== 'http:' && streamUrl.protocol !== 'https:') {
    throw invalid(`streamUrl must be an http:// URL, got ${options.streamUrl}`);
  }
  if (typeof options.sourcePassword !== 'string' || !options.sourcePassword) {
    throw invalid('sourcePassword is required');
  }
  const crossfadeSeconds = options.crossfadeSeconds ?? 2;
  if (!Number.isFinite(crossfadeSeconds) || crossfadeSeconds < 0 || crossfadeSeconds > 30) {
    throw invalid(`crossfadeSeconds must be 0-30, got ${crossfadeSeconds}`);
  }
  const loudnessTarget = options.loudnessTarget === undefined ? -16 : options.loudnessTarget;
  if (
    loudnessTarget !== null &&
    (!Number.isFinite(loudnessTarget) || loudnessTarget < -30 || loudnessTarget > -10)
  ) {
    throw invalid(`loudnessTarget must be null (off) or -30 to -10 LUFS, got ${loudnessTarget}`);
  }
  const controlPort = options.controlPort ?? 1234;
  if (!Number.isInteger(controlPort) || controlPort < 0 || controlPort > 65_535) {
    throw invalid(`controlPort must be 0-65535, got ${controlPort}`);
  }
  const deadAirSeconds = options.deadAirSeconds ?? 10;
  if (!Number.isFinite(deadAirSeconds) || deadAirSeconds < 2 || deadAirSeconds > 300) {
    throw invalid(`deadAirSeconds must be 2-300, got ${deadAirSeconds}`);
  }
  if (options.fallbackFile !== undefined && !options.fallbackFile.trim()) {
    throw invalid('fallbackFile must be a file path when given');
  }
  const mounts = options.mounts ?? STATION_MOUNTS;
  if (mounts.length === 0) throw invalid('at least one mount is required');
  for (const mount of mounts) {
    if (!mount.path.startsWith('/')) throw invalid(`mount ${mount.path} must start with /`);
  }
  return {
    musicDir: options.musicDir,
    streamUrl,
    sourcePassword: options.sourcePassword,
    admin: options.admin,
    controlHost: options.controlHost ?? '127.0.0.1',
    controlPort,
    crossfadeSeconds,
    loudnessTarget,
    ffmpegPath: options.ffmpegPath,
    station: { ...DEFAULT_STATION, url: streamUrl.origin, ...options.station },
    mounts,
    watch: options.watch ?? true,
    control: options.control ?? {},
    reconnectBackoffMs: options.reconnectBackoffMs,
    clockIntervalMs: options.clockIntervalMs ?? 50,
    deadAirSeconds,
    fallbackFile: options.fallbackFile === undefined ? undefined : resolve(options.fallbackFile),
    dataDir: options.dataDir === undefined ? undefined : resolve(options.dataDir),
    live: resolveLive(options.live),
    programming: resolveProgramming(options),
  };
}

/** The options from the environment configuration (main.ts and the embedded launcher). */
export function schedulerOptionsFromConfig(
  config: Pick<
    ConfigOf<typeof schedulerSpec>,
    | 'MUSIC_DIR'
    | 'STREAM_URL'
    | 'SOURCE_PASSWORD'
    | 'ADMIN_USER'
    | 'ADMIN_PASSWORD'
    | 'CONTROL_HOST'
    | 'CONTROL_PORT'
    | 'CROSSFADE_SECONDS'
    | 'LOUDNESS_TARGET'
    | 'FFMPEG_PATH'
    | 'DEAD_AIR_SECONDS'
    | 'FALLBACK_FILE'
    | 'DATA_DIR'
    | 'LIVE_HOST'
    | 'LIVE_PORT'
    | 'LIVE_FADE_SECONDS'
    | 'LIVE_SILENCE_SECONDS'
    | 'STATION_TIMEZONE'
    | 'ARTIST_SEPARATION_MINUTES'
    | 'TRACK_SEPARATION_MINUTES'
  >,
): SchedulerOptions {
  return {
    musicDir: config.MUSIC_DIR,
    streamUrl: config.STREAM_URL,
    sourcePassword: config.SOURCE_PASSWORD,
    admin: { user: config.ADMIN_USER, password: config.ADMIN_PASSWORD },
    controlHost: config.CONTROL_HOST,
    controlPort: config.CONTROL_PORT,
    crossfadeSeconds: config.CROSSFADE_SECONDS,
    loudnessTarget: config.LOUDNESS_TARGET,
    ffmpegPath: config.FFMPEG_PATH,
    deadAirSeconds: config.DEAD_AIR_SECONDS,
    fallbackFile: config.FALLBACK_FILE,
    dataDir: config.DATA_DIR,
    live: {
      host: config.LIVE_HOST,
      port: config.LIVE_PORT,
      fadeSeconds: config.LIVE_FADE_SECONDS,
      silenceSeconds: config.LIVE_SILENCE_SECONDS,
    },
    timeZone: config.STATION_TIMEZONE,
    artistSeparationMinutes: config.ARTIST_SEPARATION_MINUTES,
    trackSeparationMinutes: config.TRACK_SEPARATION_MINUTES,
  };
}
