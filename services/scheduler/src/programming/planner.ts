import { activeSpan, expandSchedules, type ScheduleSpan } from '@radio/core';
import { derive } from './derived.ts';
import type {
  CommitFunction,
  PlanFrom,
  PlanFunction,
  PlannedEntry,
  PlannerInputs,
  PlannerState,
} from './planner-api.ts';
import { type InterruptEvent, interruptEvents, ruleEventApplies } from './rules.ts';
import { type Draft, ordinaryDraft, ruleDraft, scheduledDraft, type Walk } from './slot.ts';
import { applyStep, cloneState, prune } from './state.ts';
import type { PlanScheduleEntry, PlanTrack } from './types.ts';

export { initialState } from './state.ts';

type Span = ScheduleSpan<PlanScheduleEntry>;

/**
 * An interrupt this late is still planned at its time (the runtime fades at once), so a
 * re-plan a moment after the fade began does not take the interrupt back.
 */
export const LATE_INTERRUPT_MS = 2000;

/** The walk's position: the entry before the next slot (null: nothing to follow). */
interface Previous {
  readonly at: number;
  readonly slotMs: PlanTrack['slotMs'];
  readonly jingle: boolean;
}

interface Plan extends Walk {
  readonly now: number;
  readonly liveSpans: readonly Span[];
  readonly events: readonly InterruptEvent[];
}

/** What the next slot is: a live slot, an interrupt, the first slot of a span, or ordinary. */
type Decision =
  | { readonly kind: 'live'; readonly span: Span }
  | {
      readonly kind: 'track';
      readonly at: number;
      readonly interrupts: boolean;
      readonly draft: Draft;
    };

function startPlan(
  inputs: PlannerInputs,
  state: PlannerState,
  from: PlanFrom,
  until: number,
): Plan {
  const derived = derive(inputs);
  const timeZone = inputs.config.timeZone;
  const start = Math.min(from.now, from.onAir?.startedAt ?? from.now);
  const spans = expandSchedules(inputs.schedules, start, Math.max(until, start) + 1, timeZone);
  const scheduledIds = new Set(derived.scheduledEntries.map((e) => e.id));
  const scheduledSpans = spans.filter((s) => scheduledIds.has(s.entry.id));
  const ruleSpans = spans.filter(
    (s) => s.entry.playlistId !== null && derived.ruleEntries.has(s.entry.playlistId),
  );
  return {
    inputs,
    derived,
    config: inputs.config,
    state: cloneState(state),
    now: from.now,
    scheduledSpans,
    ruleSpans,
    liveSpans: spans.filter((s) => s.entry.dj !== null),
    events: interruptEvents(derived, scheduledSpans, from.now - LATE_INTERRUPT_MS, until, timeZone),
  };
}

/** The first interrupt in (after, before) that still applies, not before now (less the grace). */
function interruptIn(
  plan: Plan,
  after: number,
  before: number,
): { at: number; draft: Draft } | null {
  for (const event of plan.events) {
    if (event.at <= after || event.at < plan.now - LATE_INTERRUPT_MS) continue;
    if (event.at >= before) return null;
    const draft = eventDraft(plan, event);
    if (draft) return { at: event.at, draft };
  }
  return null;
}

function eventDraft(plan: Plan, event: InterruptEvent): Draft | null {
  if (event.kind === 'span') {
    const winner = activeSpan(plan.scheduledSpans, event.at);
    return winner === event.span ? scheduledDraft(plan, event.span, event.at) : null;
  }
  const { derived, ruleSpans, state, config } = plan;
  if (!ruleEventApplies(derived, ruleSpans, state, event.playlist, event.at, config.timeZone)) {
    return null;
  }
  return ruleDraft(plan, event.playlist, event.at);
}

/**
 * The next slot after the previous start `after`, when the previous entry would hand over at
 * `natural` (crossfaded). In order: a future live slot whose start has come (after_track),
 * an interrupt before the previous entry has played out, the first slot of a scheduled span
 * that started since the previous entry (it wins even over the hand queue, so schedules start
 * on time), else the ordinary slot priority.
 *
 * An interrupt due within the previous entry's crossfade (after `natural`, before it has played
 * out) takes the next slot too: a song there would only be heard fading in before the cut. The
 * player hands over to it at `natural`, so it is heard up to one crossfade early.
 */
function decide(
  plan: Plan,
  previous: Previous | null,
  after: number,
  natural: number,
): Decision | null {
  const live = plan.liveSpans.find(
    (s) => s.start > plan.now && s.start > after && s.start <= natural && s.end > natural,
  );
  const playedOut = previous ? Math.max(natural, previous.at + previous.slotMs.joined) : natural;
  const interrupt = previous ? interruptIn(plan, after, playedOut) : null;
  if (live && (!interrupt || live.start <= interrupt.at)) return { kind: 'live', span: live };
  if (interrupt)
    return { kind: 'track', at: interrupt.at, interrupts: true, draft: interrupt.draft };
  const span = activeSpan(plan.scheduledSpans, natural);
  const starting =
    span && span.start > after && span.start <= natural
      ? scheduledDraft(plan, span, natural)
      : null;
  const draft = starting ?? ordinaryDraft(plan, natural);
  if (!draft) return null;
  // A jingle is joined, not crossfaded: it starts when the previous track has played out.
  const joined = previous && draft.jingle && !previous.jingle;
  const at = joined ? previous.at + previous.slotMs.joined : natural;
  return { kind: 'track', at, interrupts: false, draft };
}

const liveEntry = (span: Span, at: number, end: number): PlannedEntry => ({
  at,
  end,
  source: 'live',
  trackId: null,
  playlistId: null,
  scheduleId: span.entry.id,
  songRequestId: null,
  requestId: null,
  dj: span.entry.dj,
  interrupts: false,
  jingle: false,
  reason: `live: ${span.entry.title ?? span.entry.dj?.name ?? 'show'}`,
  step: { order: null, weighted: null, rule: null },
});

function slotOf(previous: Previous): number {
  return previous.jingle ? previous.slotMs.joined : previous.slotMs.crossfaded;
}

/** The live slots in force now: listed first; the one whose DJ is on air holds automation. */
function currentLive(plan: Plan, entries: PlannedEntry[]): Span | null {
  let held: Span | null = null;
  for (const span of plan.liveSpans) {
    if (span.start > plan.now || span.end <= plan.now) continue;
    entries.push(liveEntry(span, span.start, span.end));
    if (span.entry.dj?.id === plan.inputs.liveOnAir?.djId && (!held || span.end > held.end))
      held = span;
  }
  return held;
}

function onAirPrevious(inputs: PlannerInputs, from: PlanFrom): Previous | null {
  const onAir = from.onAir;
  if (!onAir) return null;
  const slotMs =
    onAir.slotMs ?? (onAir.trackId === null ? undefined : inputs.tracks.get(onAir.trackId)?.slotMs);
  // A track the planner cannot time is treated as ending now.
  return {
    at: onAir.startedAt,
    slotMs: slotMs ?? { crossfaded: 0, joined: 0 },
    jingle: onAir.jingle,
  };
}

/** See PlanFunction in planner-api.ts. */
export const plan: PlanFunction = (
  inputs,
  state,
  from,
  until,
  limit = Number.POSITIVE_INFINITY,
) => {
  const walk = startPlan(inputs, state, from, until);
  const entries: PlannedEntry[] = [];
  const held = currentLive(walk, entries);
  let previous = held ? null : onAirPrevious(inputs, from);
  let after = previous
    ? Math.max(previous.at, from.onAir?.interruptAt ?? previous.at)
    : from.now - 1;
  let start = held ? held.end : from.now;
  let chained: { entry: PlannedEntry; index: number } | null = null;
  while (entries.length < limit) {
    const natural = previous ? Math.max(previous.at + slotOf(previous), from.now) : start;
    if (natural >= until) break;
    const decision = decide(walk, previous, after, natural);
    if (!decision) break;
    const at = decision.kind === 'live' ? natural : decision.at;
    if (chained) entries[chained.index] = { ...chained.entry, end: at };
    if (decision.kind === 'live') {
      entries.push(liveEntry(decision.span, at, decision.span.end));
      [previous, after, start, chained] = [null, at, decision.span.end, null];
      continue;
    }
    const entry: PlannedEntry = { ...decision.draft, at, end: at, interrupts: decision.interrupts };
    applyStep(walk.derived, walk.state, entry, at);
    const track = inputs.tracks.get(entry.trackId ?? -1);
    previous = { at, slotMs: track?.slotMs ?? { crossfaded: 0, joined: 0 }, jingle: entry.jingle };
    after = at;
    chained = { entry, index: entries.push(entry) - 1 };
  }
  if (chained && previous)
    entries[chained.index] = { ...chained.entry, end: chained.entry.at + slotOf(previous) };
  return entries;
};

/** See CommitFunction in planner-api.ts. */
export const commit: CommitFunction = (inputs, state, entry, startedAt) => {
  const derived = derive(inputs);
  const next = cloneState(state);
  applyStep(derived, next, entry, startedAt);
  const requests = new Set(inputs.requests.map((r) => r.id));
  const queue = new Set(inputs.queue.map((q) => q.requestId));
  prune(next, startedAt - derived.horizonMs, requests, queue);
  return next;
};
