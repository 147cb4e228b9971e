import { z } from 'zod';
import { optional, variables as v } from './variables.ts';

const nonEmpty = z.string().trim().min(1);

/*
 * One spec per service, built from the shared variables. A spec lists exactly the variables
 * its service reads, so `.env.example` and the README table can be checked against them.
 */

/** Every service reads the proxies it may believe (TRUSTED_PROXIES: one list for all). */
const common = { LOG_LEVEL: v.LOG_LEVEL, TRUSTED_PROXIES: v.TRUSTED_PROXIES };

export const streamSpec = {
  ...common,
  DATA_DIR: v.DATA_DIR,
  REDIS_URL: optional(v.REDIS_URL),
  STREAM_HOST: v.STREAM_HOST,
  STREAM_PORT: v.STREAM_PORT,
  PUBLIC_STREAM_URL: optional(v.PUBLIC_STREAM_URL),
  PUBLIC_URL: optional(v.PUBLIC_URL),
  ADMIN_USER: v.ADMIN_USER,
  ADMIN_PASSWORD: v.ADMIN_PASSWORD,
  SOURCE_PASSWORD: v.SOURCE_PASSWORD,
  RELAY_FROM: optional(v.RELAY_FROM),
  MAX_LISTENERS: optional(v.MAX_LISTENERS),
  MAX_CONNECTIONS_PER_CLIENT: v.MAX_CONNECTIONS_PER_CLIENT,
  HLS_SEGMENT_SECONDS: v.HLS_SEGMENT_SECONDS,
};

export const schedulerSpec = {
  ...common,
  MUSIC_DIR: v.MUSIC_DIR,
  DATA_DIR: v.DATA_DIR,
  DATABASE_URL: v.DATABASE_URL,
  REDIS_URL: optional(v.REDIS_URL),
  STREAM_URL: v.STREAM_URL,
  SOURCE_PASSWORD: v.SOURCE_PASSWORD,
  ADMIN_USER: v.ADMIN_USER,
  ADMIN_PASSWORD: v.ADMIN_PASSWORD,
  CONTROL_HOST: v.CONTROL_HOST,
  CONTROL_PORT: v.CONTROL_PORT,
  LIVE_HOST: v.LIVE_HOST,
  LIVE_PORT: v.LIVE_PORT,
  LIVE_FADE_SECONDS: v.LIVE_FADE_SECONDS,
  LIVE_SILENCE_SECONDS: v.LIVE_SILENCE_SECONDS,
  FFMPEG_PATH: optional(v.FFMPEG_PATH),
  CROSSFADE_SECONDS: v.CROSSFADE_SECONDS,
  LOUDNESS_TARGET: v.LOUDNESS_TARGET,
  DEAD_AIR_SECONDS: v.DEAD_AIR_SECONDS,
  FALLBACK_FILE: optional(v.FALLBACK_FILE),
  STATION_TIMEZONE: v.STATION_TIMEZONE,
  ARTIST_SEPARATION_MINUTES: v.ARTIST_SEPARATION_MINUTES,
  TRACK_SEPARATION_MINUTES: v.TRACK_SEPARATION_MINUTES,
};

export const apiSpec = {
  ...common,
  MUSIC_DIR: v.MUSIC_DIR,
  DATABASE_URL: v.DATABASE_URL,
  REDIS_URL: optional(v.REDIS_URL),
  API_HOST: v.API_HOST,
  API_PORT: v.API_PORT,
  SESSION_SECRET: v.SESSION_SECRET,
  STREAM_URL: v.STREAM_URL,
  PUBLIC_STREAM_URL: optional(v.PUBLIC_STREAM_URL),
  PUBLIC_URL: optional(v.PUBLIC_URL),
  ALLOWED_ORIGINS: v.ALLOWED_ORIGINS,
  ADMIN_USER: v.ADMIN_USER,
  ADMIN_PASSWORD: v.ADMIN_PASSWORD,
  REGISTRATION: v.REGISTRATION,
  SETUP_CODE: optional(v.SETUP_CODE),
  DATA_DIR: v.DATA_DIR,
  MAX_UPLOAD_MB: v.MAX_UPLOAD_MB,
  TRASH_DAYS: v.TRASH_DAYS,
  FFMPEG_PATH: optional(v.FFMPEG_PATH),
  LIVE_URL: v.LIVE_URL,
  STATION_TIMEZONE: v.STATION_TIMEZONE,
  ARTIST_SEPARATION_MINUTES: v.ARTIST_SEPARATION_MINUTES,
  TRACK_SEPARATION_MINUTES: v.TRACK_SEPARATION_MINUTES,
  LISTENER_PRIVACY: v.LISTENER_PRIVACY,
  LISTENER_RETENTION_DAYS: v.LISTENER_RETENTION_DAYS,
  WEBHOOK_OFFLINE_SECONDS: v.WEBHOOK_OFFLINE_SECONDS,
};

export const webSpec = {
  ...common,
  WEB_HOST: v.WEB_HOST,
  WEB_PORT: v.WEB_PORT,
  API_URL: v.API_URL,
  PUBLIC_URL: optional(v.PUBLIC_URL),
  // Who may read the web server's /metrics; without a password /metrics answers 404.
  ADMIN_USER: v.ADMIN_USER,
  ADMIN_PASSWORD: optional(v.ADMIN_PASSWORD),
};

/**
 * Embedded mode reads every service's variables at once. Secrets are optional here: the
 * launcher generates missing ones under DATA_DIR before it loads this spec (16 characters),
 * and one an operator sets on a laptop need not be long.
 */
export const embeddedSpec = {
  ...streamSpec,
  ...schedulerSpec,
  ...apiSpec,
  ...webSpec,
  DATABASE_URL: optional(v.DATABASE_URL),
  ADMIN_PASSWORD: optional({ ...v.ADMIN_PASSWORD, schema: nonEmpty, expects: 'a password' }),
  SOURCE_PASSWORD: optional({ ...v.SOURCE_PASSWORD, schema: nonEmpty, expects: 'a password' }),
  SESSION_SECRET: optional(v.SESSION_SECRET),
};
