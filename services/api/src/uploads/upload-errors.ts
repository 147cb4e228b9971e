import type { AudioRefusal } from '@radio/core';
import { ApiError } from '../errors.ts';

/**
 * The upload's own refusals, by code. A probe's refusal keeps its reason under `UPLOAD_` +
 * the probe's code (UPLOAD_VIDEO, UPLOAD_TRUNCATED …) with the probe's 415 or 422.
 */
export const UPLOAD_ERRORS = {
  UPLOAD_BAD_NAME: 400,
  UPLOAD_BAD_REQUEST: 400,
  UPLOAD_NOT_YOURS: 403,
  UPLOAD_NOT_FOUND: 404,
  UPLOAD_NAME_TAKEN: 409,
  UPLOAD_OFFSET_CONFLICT: 409,
  UPLOAD_GONE: 410,
  UPLOAD_TOO_LARGE: 413,
  UPLOAD_NOT_AUDIO: 415,
  UPLOAD_EMPTY_FILE: 422,
  UPLOAD_DISK_FULL: 507,
  UPLOAD_FAILED: 500,
} as const;

export type UploadErrorCode = keyof typeof UPLOAD_ERRORS;

export function uploadError(code: UploadErrorCode, message: string): ApiError {
  return new ApiError(code, message, { status: UPLOAD_ERRORS[code] });
}

export function refusalError(refusal: AudioRefusal): ApiError {
  return new ApiError(`UPLOAD_${refusal.code}`, refusal.message, { status: refusal.status });
}

/** The JSON an error is answered with, as the api's error handler writes it. */
export function errorBody(error: ApiError): string {
  return JSON.stringify({ error: { code: error.code, message: error.message } });
}
