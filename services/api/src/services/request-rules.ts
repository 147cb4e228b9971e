import type { Track } from '@radio/db';
import type { RequestSettings } from '../dtos/requests.dto.ts';
import { ApiError } from '../errors.ts';
import type { RequestsRepository } from '../repositories/requests.repository.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface RequestRuleContext {
  requests: RequestsRepository;
  settings: RequestSettings;
  artistSeparationMinutes: number;
  trackSeparationMinutes: number;
  timeZone: string;
  now: number;
}

/** Whole minutes, at least 1, for messages ("12 minutes ago"). */
function minutes(ms: number): string {
  const count = Math.max(1, Math.round(ms / MINUTE_MS));
  return count === 1 ? '1 minute' : `${count} minutes`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** HH:MM in the station's zone: what the station's own clock shows. */
export function stationClock(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

/** The user's own limits: pending requests, then requests in the last hour. */
async function checkUserLimits(userId: number, ctx: RequestRuleContext): Promise<void> {
  const { settings, requests, now } = ctx;
  const pending = await requests.countPending(userId);
  if (pending >= settings.maxPendingPerUser) {
    throw new ApiError(
      'REQUEST_TOO_MANY_PENDING',
      `you have ${plural(pending, 'pending request', 'pending requests')}; the limit is ${settings.maxPendingPerUser}: wait until one plays`,
    );
  }
  const made = await requests.requestTimesSince(userId, new Date(now - HOUR_MS).toISOString());
  const limit = settings.maxPerHourPerUser;
  if (made.length >= limit) {
    // The request whose leaving the hour's window brings the count under the limit.
    const leaving = Date.parse(made[made.length - limit] as string) + HOUR_MS;
    const wait = Math.max(1, Math.ceil((leaving - now) / 1000));
    throw new ApiError(
      'REQUEST_HOURLY_LIMIT',
      `you made ${plural(made.length, 'request', 'requests')} in the last hour; the limit is ${limit} an hour: try again in ${minutes(wait * 1000)}`,
      { headers: { 'Retry-After': String(wait) } },
    );
  }
}

/** The threshold: neither requested nor played within `thresholdMinutes`. */
async function checkThreshold(track: Track, ctx: RequestRuleContext): Promise<number | null> {
  const { settings, requests, now } = ctx;
  const threshold = settings.thresholdMinutes * MINUTE_MS;
  const blocking = await requests.blockingRequest(
    track.id,
    new Date(now - threshold).toISOString(),
  );
  if (blocking?.status === 'pending') {
    throw new ApiError(
      'REQUEST_ALREADY_REQUESTED',
      `"${track.title}" is requested already and waits to play`,
    );
  }
  if (blocking) {
    throw new ApiError(
      'REQUEST_ALREADY_REQUESTED',
      `"${track.title}" was requested ${minutes(now - Date.parse(blocking.requested_at))} ago; a track can be requested again ${minutes(threshold)} after its last request`,
    );
  }
  const lastPlay = await requests.lastTrackPlay(track.id);
  const playedAt = lastPlay === null ? null : Date.parse(lastPlay);
  if (playedAt !== null && now - playedAt < threshold) {
    throw new ApiError(
      'REQUEST_RECENTLY_PLAYED',
      `"${track.title}" played ${minutes(now - playedAt)} ago; a track can be requested ${minutes(threshold)} after it played`,
    );
  }
  return playedAt;
}

/**
 * The station's separation rules at the earliest time the request may play (`notBefore`):
 * the planner would hold it back until they hold, so it is refused now with the time it could
 * play instead.
 */
async function checkSeparation(
  track: Track,
  playedAt: number | null,
  notBefore: number,
  ctx: RequestRuleContext,
): Promise<void> {
  const clock = (at: number) => stationClock(at, ctx.timeZone);
  const trackGap = ctx.trackSeparationMinutes * MINUTE_MS;
  if (playedAt !== null && playedAt + trackGap > notBefore) {
    throw new ApiError(
      'REQUEST_TRACK_SEPARATION',
      `"${track.title}" played at ${clock(playedAt)}; a track plays again no sooner than ${minutes(trackGap)} after (track separation), so request it from ${clock(playedAt + trackGap)}`,
    );
  }
  if (track.artist === null || track.artist.trim() === '') return;
  const artistGap = ctx.artistSeparationMinutes * MINUTE_MS;
  const lastArtist = await ctx.requests.lastArtistPlay(track.artist);
  const artistAt = lastArtist === null ? null : Date.parse(lastArtist);
  if (artistAt !== null && artistAt + artistGap > notBefore) {
    throw new ApiError(
      'REQUEST_ARTIST_SEPARATION',
      `${track.artist} played at ${clock(artistAt)}; an artist plays again no sooner than ${minutes(artistGap)} after (artist separation), so this request could play from ${clock(artistAt + artistGap)}: request it then`,
    );
  }
}

/**
 * Every rule a new request of a playable track must pass (requests being on is checked first,
 * by the caller), in the order a listener can act on them: the user's own limits, the
 * threshold, then separation. Returns when it may play (`notBefore`, epoch ms).
 */
export async function checkRequest(
  userId: number,
  track: Track,
  ctx: RequestRuleContext,
): Promise<number> {
  await checkUserLimits(userId, ctx);
  const playedAt = await checkThreshold(track, ctx);
  const notBefore = ctx.now + ctx.settings.minDelayMinutes * MINUTE_MS;
  await checkSeparation(track, playedAt, notBefore, ctx);
  return notBefore;
}
