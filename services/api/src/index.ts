/// <reference path="./express.d.ts" />
export { type Api, createApi, type ListeningApi } from './api.ts';
export { BASE_PATH } from './app.ts';
export type { LimitRule } from './auth/rate-limiter.ts';
export { API_ERRORS, ApiError, type ApiErrorCode } from './errors.ts';
export type { ApiOptions } from './options.ts';
export { API_VERSION } from './version.ts';
export type { ApiDeps } from './wiring.ts';
