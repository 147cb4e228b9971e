import { optional, variables as v } from './variables.ts';

/*
 * One spec per service, built from the shared variables. A spec lists exactly the variables
 * its service reads, so `.env.example` and the README table can be checked against them.
 */

const common = { LOG_LEVEL: v.LOG_LEVEL };

export const streamSpec = {
  ...common,
  DATA_DIR: v.DATA_DIR,
  REDIS_URL: optional(v.REDIS_URL),
  STREAM_HOST: v.STREAM_HOST,
  STREAM_PORT: v.STREAM_PORT,
  PUBLIC_STREAM_URL: optional(v.PUBLIC_STREAM_URL),
  ADMIN_USER: v.ADMIN_USER,
  ADMIN_PASSWORD: v.ADMIN_PASSWORD,
  SOURCE_PASSWORD: v.SOURCE_PASSWORD,
  RELAY_FROM: optional(v.RELAY_FROM),
  MAX_LISTENERS: optional(v.MAX_LISTENERS),
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
  ADMIN_USER: v.ADMIN_USER,
  ADMIN_PASSWORD: v.ADMIN_PASSWORD,
  TRUST_PROXY: v.TRUST_PROXY,
  REGISTRATION: v.REGISTRATION,
  DATA_DIR: v.DATA_DIR,
  MAX_UPLOAD_MB: v.MAX_UPLOAD_MB,
  TRASH_DAYS: v.TRASH_DAYS,
  FFMPEG_PATH: optional(v.FFMPEG_PATH),
  LIVE_URL: v.LIVE_URL,
};

export const webSpec = {
  ...common,
  WEB_HOST: v.WEB_HOST,
  WEB_PORT: v.WEB_PORT,
  API_URL: v.API_URL,
};

/**
 * Embedded mode reads every service's variables at once. Secrets are optional here: the
 * launcher generates missing ones under DATA_DIR before it loads this spec.
 */
export const embeddedSpec = {
  ...streamSpec,
  ...schedulerSpec,
  ...apiSpec,
  ...webSpec,
  DATABASE_URL: optional(v.DATABASE_URL),
  ADMIN_PASSWORD: optional(v.ADMIN_PASSWORD),
  SOURCE_PASSWORD: optional(v.SOURCE_PASSWORD),
  SESSION_SECRET: optional(v.SESSION_SECRET),
};
