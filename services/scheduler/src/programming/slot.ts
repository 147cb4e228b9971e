import { activeSpan, type ScheduleSpan } from '@radio/core';
import { type Derived, LIBRARY_ID } from './derived.ts';
import { type Pick, type PickContext, pickFrom, relaxationFor, relaxationText } from './picker.ts';
import type { PlannedEntry, PlannerInputs, PlanStep } from './planner-api.ts';
import { dueRule, ruleReason } from './rules.ts';
import type { WorkState } from './state.ts';
import type { PlanPlaylist, PlanQueued, PlanScheduleEntry } from './types.ts';

/** An entry chosen for a slot, before its times are known. */
export type Draft = Omit<PlannedEntry, 'at' | 'end' | 'interrupts'>;

/** What one plan (or one commit) works with. */
export interface Walk extends PickContext {
  readonly inputs: PlannerInputs;
  readonly derived: Derived;
  readonly state: WorkState;
  readonly scheduledSpans: readonly ScheduleSpan<PlanScheduleEntry>[];
  readonly ruleSpans: readonly ScheduleSpan<PlanScheduleEntry>[];
}

const NO_STEP: PlanStep = { order: null, weighted: null, rule: null };

const NO_DRAFT: Draft = {
  source: 'queue',
  trackId: null,
  playlistId: null,
  scheduleId: null,
  songRequestId: null,
  requestId: null,
  dj: null,
  jingle: false,
  reason: '',
  step: NO_STEP,
};

const QUEUE_REASON = {
  request: 'pushed by hand',
  new: 'new in the library',
  playlist: 'playlist put on air',
} as const;

function withRelaxation(reason: string, pick: Pick): string {
  return pick.level === 0 ? reason : `${reason} (${relaxationText(pick.level)})`;
}

function draftOf(
  playlist: PlanPlaylist,
  pick: Pick,
  source: PlannedEntry['source'],
  reason: string,
  extra: { scheduleId?: number; weighted?: number; rule?: number } = {},
): Draft {
  return {
    source,
    trackId: pick.trackId,
    playlistId: playlist.id === LIBRARY_ID ? null : playlist.id,
    scheduleId: extra.scheduleId ?? null,
    songRequestId: null,
    requestId: null,
    dj: null,
    jingle: playlist.jingle,
    reason: withRelaxation(reason, pick),
    step: {
      order: { playlistId: playlist.id, position: pick.position, cycle: pick.cycle },
      weighted: extra.weighted ?? null,
      rule: extra.rule ?? null,
    },
  };
}

/** A rule playlist's track (jingle source), for a due rule or its interrupt. */
export function ruleDraft(walk: Walk, rule: PlanPlaylist, t: number): Draft | null {
  const pick = pickFrom(walk, rule, t);
  const reason = ruleReason(rule, walk.config.timeZone);
  return pick && draftOf(rule, pick, 'jingle', reason, { rule: rule.id });
}

/** The track of a scheduled span's playlist, or null when it has none. */
export function scheduledDraft(
  walk: Walk,
  span: ScheduleSpan<PlanScheduleEntry>,
  t: number,
): Draft | null {
  const playlist = walk.derived.playlists.get(span.entry.playlistId ?? -1);
  if (!playlist) return null;
  const pick = pickFrom(walk, playlist, t);
  const reason = `scheduled: ${span.entry.title ?? playlist.name}`;
  return pick && draftOf(playlist, pick, 'scheduled', reason, { scheduleId: span.entry.id });
}

/** The first entry of the hand queue of one of `kinds` not yet planned. */
function queueDraft(walk: Walk, kinds: readonly PlanQueued['kind'][]): Draft | null {
  const done = walk.state.queueDone;
  for (const queued of walk.inputs.queue) {
    if (!kinds.includes(queued.kind) || done.includes(queued.requestId)) continue;
    if (!walk.inputs.tracks.has(queued.trackId)) continue;
    return {
      ...NO_DRAFT,
      source: 'queue',
      trackId: queued.trackId,
      requestId: queued.requestId,
      reason: QUEUE_REASON[queued.kind],
    };
  }
  return null;
}

/** The oldest request that may play at `t` with its separation kept in full. */
function requestDraft(walk: Walk, t: number): Draft | null {
  for (const request of walk.derived.requests) {
    if (request.notBefore > t || walk.state.requestsDone.includes(request.id)) continue;
    if (!walk.inputs.tracks.has(request.trackId)) continue;
    if (relaxationFor(walk, request.trackId, t) !== 0) continue;
    return {
      ...NO_DRAFT,
      source: 'request',
      trackId: request.trackId,
      songRequestId: request.id,
      reason: `request by ${request.userName}`,
    };
  }
  return null;
}

/**
 * The default rotation: smooth weighted round robin among its playlists (the one whose
 * current weight plus its weight is highest, lowest id on a tie). When that one can only
 * offer a relaxed pick, the others are asked in the same order and the first that keeps the
 * rules plays instead (it then pays the round robin's total). No playlist: the library.
 */
function rotationDraft(walk: Walk, t: number): Draft | null {
  const playlists = walk.derived.defaultRotation;
  if (playlists.length === 0) {
    const pick = pickFrom(walk, walk.derived.library, t);
    return pick && draftOf(walk.derived.library, pick, 'rotation', 'rotation: library');
  }
  const weights = walk.state.weights;
  const ranked = [...playlists].sort(
    (a, b) => (weights[b.id] ?? 0) + b.weight - ((weights[a.id] ?? 0) + a.weight) || a.id - b.id,
  );
  let best: { playlist: PlanPlaylist; pick: Pick } | null = null;
  for (const playlist of ranked) {
    const pick = pickFrom(walk, playlist, t);
    if (pick && (best === null || pick.level < best.pick.level)) best = { playlist, pick };
    if (best?.pick.level === 0) break;
  }
  if (!best) return null;
  const reason = `rotation: ${best.playlist.name}`;
  return draftOf(best.playlist, best.pick, 'rotation', reason, { weighted: best.playlist.id });
}

const PUSHED: readonly PlanQueued['kind'][] = ['request', 'new'];
const PLAYLIST: readonly PlanQueued['kind'][] = ['playlist'];

/**
 * The entry for an ordinary slot at `t`, by the slot priority: tracks pushed by hand (and new
 * files), a due rule, a request, the items of a playlist put on air by hand (a request is not
 * kept waiting behind a whole playlist), the scheduled playlist in force, the default rotation
 * (or the library). Null only when the library is empty.
 */
export function ordinaryDraft(walk: Walk, t: number): Draft | null {
  const pushed = queueDraft(walk, PUSHED);
  if (pushed) return pushed;
  const rule = dueRule(walk.derived, walk.ruleSpans, walk.state, t, walk.config.timeZone);
  const ruled = rule && ruleDraft(walk, rule, t);
  if (ruled) return ruled;
  const requested = requestDraft(walk, t) ?? queueDraft(walk, PLAYLIST);
  if (requested) return requested;
  const span = activeSpan(walk.scheduledSpans, t);
  const scheduled = span && scheduledDraft(walk, span, t);
  return scheduled ?? rotationDraft(walk, t);
}
