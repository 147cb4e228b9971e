/// <reference path="./express.d.ts" />
export { type Api, createApi } from './api.ts';
export { BASE_PATH } from './app.ts';
export type { LimitRule } from './auth/rate-limiter.ts';
export { API_ERRORS, ApiError, type ApiErrorCode, ApiStateError } from './errors.ts';
export { type ApiOptions, apiOptionsFromConfig } from './options.ts';
export { API_VERSION } from './version.ts';
export type { ApiDeps } from './wiring.ts';
