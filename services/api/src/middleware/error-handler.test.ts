import { describe, expect, it } from '@jest/globals';
import {
  BusClosedError,
  BusTimeoutError,
  BusUnavailableError,
  CommandFailedError,
} from '@radio/core';
import { ApiError } from '../errors.ts';
import { toApiError } from './error-handler.ts';

describe('toApiError', () => {
  it('keeps an ApiError as it is', () => {
    const error = new ApiError('API_TRACK_NOT_FOUND');
    expect(toApiError(error)).toBe(error);
    expect(error.status).toBe(404);
  });

  it('maps bus failures to 503 with a reason', () => {
    const timeout = toApiError(new BusTimeoutError('player.pause', 3000));
    expect([timeout.status, timeout.code]).toEqual([503, 'API_SCHEDULER_UNAVAILABLE']);
    expect(timeout.message).toContain('player.pause');
    expect(timeout.headers['Retry-After']).toBe('5');
    expect(toApiError(new BusUnavailableError('down')).code).toBe('API_BUS_UNAVAILABLE');
    expect(toApiError(new BusClosedError()).status).toBe(503);
  });

  it('passes a scheduler refusal on with its own code and a fitting status', () => {
    const cases: Array<[string, number]> = [
      ['SCHEDULER_TRACK_NOT_FOUND', 404],
      ['SCHEDULER_INVALID_URI', 400],
      ['SCHEDULER_QUEUE_FULL', 409],
      ['SCHEDULER_SCAN_RUNNING', 409],
      ['SCHEDULER_DECODER_CRASHED', 502],
      ['SCHEDULER_PATH_OUTSIDE_LIBRARY', 400],
      ['SCHEDULER_BAD_URI', 400],
      ['SCHEDULER_TRACK_INVALID', 409],
      ['SCHEDULER_PLAYLIST_EMPTY', 409],
      ['SCHEDULER_NOT_STARTED', 503],
    ];
    for (const [code, status] of cases) {
      const error = toApiError(new CommandFailedError('queue.push', code, 'because'));
      expect([error.code, error.status, error.message]).toEqual([code, status, 'because']);
    }
    expect(toApiError(new CommandFailedError('player.play', 'INTERNAL', 'boom')).code).toBe(
      'API_SCHEDULER_ERROR',
    );
  });

  it('maps body parser failures and hides everything else as a 500', () => {
    expect(
      toApiError(Object.assign(new Error('x'), { type: 'entity.too.large', status: 413 })).status,
    ).toBe(413);
    expect(
      toApiError(Object.assign(new Error('x'), { type: 'entity.parse.failed', status: 400 })).code,
    ).toBe('API_INVALID_JSON');
    expect(toApiError(Object.assign(new URIError('bad escape'), { status: 400 })).code).toBe(
      'API_VALIDATION',
    );
    const internal = toApiError(new TypeError('secret detail'));
    expect([internal.status, internal.code, internal.message]).toEqual([
      500,
      'API_INTERNAL',
      'internal error',
    ]);
  });
});
