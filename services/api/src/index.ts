/// <reference path="./express.d.ts" />
export { type Api, type ApiDeps, type ApiOptions, createApi, type ListeningApi } from './api.ts';
export { BASE_PATH } from './app.ts';
export type { LimitRule } from './auth/rate-limiter.ts';
export { API_ERRORS, ApiError, type ApiErrorCode } from './errors.ts';
export { API_VERSION } from './version.ts';
