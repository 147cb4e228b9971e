/**
 * The bus message catalogue: one zod schema per event payload, command payload, command result
 * and state value, and the TypeScript types inferred from them. Every receiver validates what it
 * gets against these tables, and every sender validates what it sends, so a bug in one service
 * shows up where it is made, in the same way with Redis and in process.
 *
 * Units: durations and positions are seconds (fractional), points in time are epoch
 * milliseconds, `amplify` is a linear gain factor (1 = unchanged). Fields that may be unknown
 * are `null`, never missing, except where marked optional.
 */
import { z } from 'zod';
import {
  liveKickTargetSchema,
  liveSessionSchema,
  liveSilentSchema,
  liveStateSchema,
} from './live-schemas.ts';
import { count, epochMs, id, mountName, seconds } from './primitives.ts';
import { listenerSessionSchema } from './session-schemas.ts';
import { songRequestUpdateSchema, timelineSchema } from './timeline-schemas.ts';

export * from './live-schemas.ts';
export * from './session-schemas.ts';
export * from './timeline-schemas.ts';

// ---------------------------------------------------------------------------------------------
// Shared shapes

export const AMPLIFY_MIN = 0;
export const AMPLIFY_MAX = 4;
const amplify = z.number().min(AMPLIFY_MIN).max(AMPLIFY_MAX);

/** Why a track is (or was) on air: a listener's request, rotation, a playlist, a new file. */
export const trackSourceSchema = z.enum(['request', 'rotation', 'playlist', 'new']);
export type TrackSource = z.infer<typeof trackSourceSchema>;

export const playbackStateSchema = z.enum(['playing', 'paused', 'stopped']);
export type PlaybackState = z.infer<typeof playbackStateSchema>;

export const queueItemSchema = z.object({
  /** The scheduler's id of this request in the queue (what `request.queue` lists). */
  requestId: z.string().min(1),
  /** The track in the library; null for a URI that is not in the library. */
  trackId: id.nullable(),
  /** Path relative to MUSIC_DIR, or the URI that was pushed. */
  path: z.string().min(1),
  title: z.string(),
  artist: z.string().nullable(),
  duration: seconds.nullable(),
  kind: trackSourceSchema,
});
export type QueueItem = z.infer<typeof queueItemSchema>;

export const queueSnapshotSchema = z.object({ items: z.array(queueItemSchema) });
export type QueueSnapshot = z.infer<typeof queueSnapshotSchema>;

export const nowPlayingSchema = z.object({
  trackId: id.nullable(),
  requestId: z.string().min(1).nullable(),
  path: z.string().min(1).nullable(),
  title: z.string(),
  artist: z.string().nullable(),
  album: z.string().nullable(),
  duration: seconds.nullable(),
  /** When the track started on air (audio time, not decode time). */
  startedAt: epochMs,
  /** `live`: a DJ on the live input (its title, the DJ's name as artist, no track). */
  source: z.enum([...trackSourceSchema.options, 'live']),
});
export type NowPlaying = z.infer<typeof nowPlayingSchema>;

/**
 * Why the mounts carry the fallback (FALLBACK_FILE or the station-ID tone) instead of music:
 * the library has no file at all, or none of its files can be played.
 */
export const playoutFallbackSchema = z.object({
  reason: z.enum(['empty-library', 'no-playable-tracks']),
  /** One line for operators, e.g. "the music folder is empty: add files to MUSIC_DIR". */
  message: z.string().min(1),
});
export type PlayoutFallback = z.infer<typeof playoutFallbackSchema>;

export const playerStateSchema = z.object({
  state: playbackStateSchema,
  /** Seconds into the current track; null when stopped. */
  position: seconds.nullable(),
  amplify,
  /** Set while the fallback is on air; absent or null otherwise. */
  fallback: playoutFallbackSchema.nullable().optional(),
});
export type PlayerState = z.infer<typeof playerStateSchema>;

export const playerStatusSchema = z.object({
  state: playbackStateSchema,
  nowPlaying: nowPlayingSchema.nullable(),
  position: seconds.nullable(),
  amplify,
  fallback: playoutFallbackSchema.nullable().optional(),
});
export type PlayerStatus = z.infer<typeof playerStatusSchema>;

export const mountListenersSchema = z.object({
  mount: mountName,
  listeners: count,
  /** The highest `listeners` since the stream server started. */
  peak: count,
});
export type MountListeners = z.infer<typeof mountListenersSchema>;

export const listenerCountsSchema = z.object({
  mounts: z.array(mountListenersSchema),
  total: count,
});
export type ListenerCounts = z.infer<typeof listenerCountsSchema>;

/** One node's audience: an edge relay's report to the origin, which counts the whole audience. */
export const edgeListenersSchema = z.object({
  /** Stable for the life of the edge (host name and port). */
  node: z.string().min(1).max(200),
  /** Where this edge's listeners connect: full nodes send new listeners here (302). */
  url: z.url({ protocol: /^https?$/ }),
  mounts: z.array(z.object({ mount: mountName, listeners: count })),
  /** The edge's MAX_LISTENERS; null when it has no limit. */
  maxListeners: count.nullable(),
  ts: epochMs,
});
export type EdgeListeners = z.infer<typeof edgeListenersSchema>;

export const streamSourceSchema = z.object({
  mount: mountName,
  connected: z.boolean(),
  contentType: z.string().min(1).optional(),
  /** kbit/s, as the source announced it. */
  bitrate: z.number().positive().optional(),
});
export type StreamSource = z.infer<typeof streamSourceSchema>;

export const libraryChangesSchema = z.object({
  added: count,
  updated: count,
  removed: count,
  invalid: count,
  /** The paths (relative to MUSIC_DIR) that changed, when the batch is small enough to list. */
  paths: z.array(z.string()).optional(),
});
export type LibraryChanges = z.infer<typeof libraryChangesSchema>;

export const libraryScanSchema = z.object({
  scanId: z.string().min(1),
  state: z.enum(['running', 'done', 'failed']),
  /** Files looked at so far, out of `total` found. */
  done: count,
  total: count,
  indexed: count,
  invalid: count,
  missing: count,
  startedAt: epochMs,
  finishedAt: epochMs.nullable(),
  error: z.string().nullable(),
});
export type LibraryScan = z.infer<typeof libraryScanSchema>;

/** The background loudness and cue analysis: how far it is through the library. */
export const libraryAnalysisSchema = z.object({
  state: z.enum(['idle', 'running']),
  /** Playable tracks waiting to be analysed. */
  pending: count,
  /** Tracks analysed (of every status ok track). */
  analysed: count,
  /** Tracks the analysis could not measure (they still play). */
  failed: count,
  /** Library paths being analysed right now. */
  current: z.array(z.string()),
  /** Seconds of audio analysed per second of wall time while the worker was busy; null before. */
  rate: z.number().nonnegative().nullable(),
});
export type LibraryAnalysis = z.infer<typeof libraryAnalysisSchema>;

export const deadAirSchema = z.object({
  /** Seconds the output stayed below -50 dBFS before the guard acted. */
  silentSeconds: seconds,
  trackId: id.nullable(),
  title: z.string().nullable(),
  /** What the guard did: skipped the silent track. */
  action: z.enum(['skipped']),
});
export type DeadAir = z.infer<typeof deadAirSchema>;

// ---------------------------------------------------------------------------------------------
// Events: published on `radio:events`, received by every subscriber.

export const eventPayloadSchemas = {
  /** Per-mount listener counts; the stream server publishes on change, at most once a second. */
  'stream.listeners': listenerCountsSchema,
  /** A source client connected to or left a mount. */
  'stream.source': streamSourceSchema,
  /** An edge relay's listeners, every few seconds; the origin adds them to its counts. */
  'edge.listeners': edgeListenersSchema,
  /** A new track went on air. */
  'player.now-playing': nowPlayingSchema,
  'player.state': playerStateSchema,
  /** The whole upcoming queue, after any change. */
  'queue.changed': queueSnapshotSchema,
  'library.changed': libraryChangesSchema,
  /** Progress of a library scan, then its end (`done` or `failed`). */
  'library.scan': libraryScanSchema,
  /** Progress of the background analysis, at most once a second while it runs. */
  'library.analysis': libraryAnalysisSchema,
  /** The AutoDJ's output stayed silent for DEAD_AIR_SECONDS and the guard acted. */
  'playout.dead_air': deadAirSchema,
  /** A DJ's live source took the air from the AutoDJ. */
  'live.connected': liveSessionSchema,
  /** The live source left; the AutoDJ is back. */
  'live.disconnected': liveSessionSchema,
  /** The DJ on air went silent and the AutoDJ took over; the DJ stays connected. */
  'live.silent': liveSilentSchema,
  /** Sound returned from the silent DJ, back on air. */
  'live.resumed': liveSessionSchema,
  /** The live input changed (a source connected, left, waits, went silent, a title). */
  'live.state': liveStateSchema,
  /**
   * An account was changed or deleted (role, disabled, password, name): every api process
   * drops what it keeps of it, so the change applies to that account's sessions at once.
   */
  'user.changed': z.object({ userId: id }),
  /** The plan changed (or a planned track started): the next entries, for "Coming up". */
  'schedule.timeline': timelineSchema,
  /** Listener requests changed state (accepted, planned at a new time, played, removed). */
  'requests.updated': z.object({ requests: z.array(songRequestUpdateSchema) }),
  /** A service's probe of the bus round trip (metrics); only the sender reads its own. */
  'bus.ping': z.object({ probe: z.string().min(1).max(64) }),
} as const;

export type EventType = keyof typeof eventPayloadSchemas;
export type EventPayloads = { [K in EventType]: z.infer<(typeof eventPayloadSchemas)[K]> };
export const EVENT_TYPES = Object.keys(eventPayloadSchemas) as EventType[];

// ---------------------------------------------------------------------------------------------
// Commands: published on `radio:commands`, answered on the requester's reply channel.

const empty = z.object({});

export const commandPayloadSchemas = {
  /** Start playing: a given track, a playlist, or (with neither) resume the rotation. */
  'player.play': z
    .object({ trackId: id.optional(), playlistId: id.optional() })
    .refine((p) => p.trackId === undefined || p.playlistId === undefined, {
      message: 'give trackId or playlistId, not both',
    }),
  'player.pause': empty,
  'player.stop': empty,
  'player.resume': empty,
  'player.skip': empty,
  'player.status': empty,
  /** Queue a library track or a URI (exactly one of the two). */
  'queue.push': z
    .object({ trackId: id.optional(), uri: z.string().min(1).optional() })
    .refine((p) => (p.trackId === undefined) !== (p.uri === undefined), {
      message: 'give exactly one of trackId and uri',
    }),
  'queue.list': empty,
  /**
   * Drops every queued entry of a track (requests, playlist items, rotation picks) and keeps
   * it out of the rotation: the track is being deleted. The track on air is not cut.
   */
  'queue.remove': z.object({ trackId: id }),
  'playlist.play': z.object({ playlistId: id, mode: z.enum(['replace', 'append']) }),
  'amplify.get': empty,
  'amplify.set': z.object({ value: amplify }),
  'library.rescan': empty,
  /**
   * Drops live sources: the DJ on air, those waiting, or all of them; with `djId`, only that
   * DJ's among them (a DJ may take itself off, never another DJ).
   */
  'live.kick': z.object({ target: liveKickTargetSchema, djId: id.optional() }),
  /** Schedules, playlists' programming, requests or their settings changed: plan again. */
  'schedule.reload': empty,
  /** The plan for the next `hours` hours. */
  'schedule.timeline': z.object({ hours: z.number().positive().max(168) }),
  /**
   * A batch of finished listener sessions for the api to store. A command, not an event: the
   * reply is the stream server's receipt, and a batch without one stays in its buffer.
   */
  'listeners.sessions': z.object({
    node: z.string().min(1).max(200),
    sessions: z.array(listenerSessionSchema).max(5000),
  }),
} as const;

export const queuePushResultSchema = z.object({
  requestId: z.string().min(1),
  item: queueItemSchema,
});
export type QueuePushResult = z.infer<typeof queuePushResultSchema>;
export const queueRemoveResultSchema = z.object({
  /** Queue entries dropped. */
  removed: count,
  /** Whether the track is on air now (it plays to its end). */
  onAir: z.boolean(),
});
export type QueueRemoveResult = z.infer<typeof queueRemoveResultSchema>;
export const playlistPlayResultSchema = z.object({ queued: count });
export type PlaylistPlayResult = z.infer<typeof playlistPlayResultSchema>;
export const amplifyResultSchema = z.object({ amplify });
export type AmplifyResult = z.infer<typeof amplifyResultSchema>;
export const libraryRescanResultSchema = z.object({ scanId: z.string().min(1) });
export type LibraryRescanResult = z.infer<typeof libraryRescanResultSchema>;
export const liveKickResultSchema = z.object({
  /** The DJs disconnected; empty when nobody matched. */
  kicked: z.array(z.object({ id, name: z.string().min(1) })),
});
export type LiveKickResult = z.infer<typeof liveKickResultSchema>;

export const commandResultSchemas = {
  'player.play': playerStatusSchema,
  'player.pause': playerStatusSchema,
  'player.stop': playerStatusSchema,
  'player.resume': playerStatusSchema,
  'player.skip': playerStatusSchema,
  'player.status': playerStatusSchema,
  'queue.push': queuePushResultSchema,
  'queue.list': queueSnapshotSchema,
  'queue.remove': queueRemoveResultSchema,
  'playlist.play': playlistPlayResultSchema,
  'amplify.get': amplifyResultSchema,
  'amplify.set': amplifyResultSchema,
  'library.rescan': libraryRescanResultSchema,
  'live.kick': liveKickResultSchema,
  'schedule.reload': z.object({ revision: count }),
  'schedule.timeline': timelineSchema,
  'listeners.sessions': z.object({ stored: count }),
} as const satisfies Record<keyof typeof commandPayloadSchemas, z.ZodType>;

export type CommandType = keyof typeof commandPayloadSchemas;
export type CommandPayloads = { [K in CommandType]: z.infer<(typeof commandPayloadSchemas)[K]> };
export type CommandResults = { [K in CommandType]: z.infer<(typeof commandResultSchemas)[K]> };
export const COMMAND_TYPES = Object.keys(commandPayloadSchemas) as CommandType[];

// ---------------------------------------------------------------------------------------------
// State snapshots: the latest value a newcomer needs, kept under `radio:state:<key>`.

export const stateSchemas = {
  'now-playing': nowPlayingSchema,
  'player-state': playerStateSchema,
  listeners: listenerCountsSchema,
  queue: queueSnapshotSchema,
  'library-scan': libraryScanSchema,
  'library-analysis': libraryAnalysisSchema,
  'live-state': liveStateSchema,
  /** The latest plan's first entries (what `schedule.timeline` events carry). */
  timeline: timelineSchema,
} as const;

export type StateKey = keyof typeof stateSchemas;
export type StateValues = { [K in StateKey]: z.infer<(typeof stateSchemas)[K]> };
export const STATE_KEYS = Object.keys(stateSchemas) as StateKey[];

/**
 * The events whose payload is also the latest state a newcomer reads: `Bus.publishState` sends
 * the event and stores the same payload under this key, so the two never disagree.
 */
export const eventStateKeys = {
  'player.now-playing': 'now-playing',
  'player.state': 'player-state',
  'stream.listeners': 'listeners',
  'queue.changed': 'queue',
  'library.scan': 'library-scan',
  'library.analysis': 'library-analysis',
  'live.state': 'live-state',
  'schedule.timeline': 'timeline',
} as const satisfies Partial<Record<EventType, StateKey>>;

export type StatefulEventType = keyof typeof eventStateKeys;

// ---------------------------------------------------------------------------------------------
// Envelopes

const envelopeFields = {
  id: z.string().min(1),
  ts: epochMs,
};

/** The outer shape of an event before its payload is checked against the table. */
export const eventEnvelopeSchema = z.object({
  ...envelopeFields,
  type: z.string().min(1),
  payload: z.unknown(),
});

/** The outer shape of a command before its payload is checked against the table. */
export const commandEnvelopeSchema = eventEnvelopeSchema.extend({ replyTo: z.string().min(1) });

export const replyErrorSchema = z.object({ code: z.string().min(1), message: z.string() });
export type ReplyError = z.infer<typeof replyErrorSchema>;

export const replyPayloadSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: replyErrorSchema }),
]);
export type ReplyPayload = z.infer<typeof replyPayloadSchema>;

export const replyMessageSchema = z.object({
  ...envelopeFields,
  type: z.literal('reply'),
  inReplyTo: z.string().min(1),
  payload: replyPayloadSchema,
});
export type ReplyMessage = z.infer<typeof replyMessageSchema>;

/** An event as delivered; `type` narrows `payload` in a switch. */
export type EventMessage<T extends EventType = EventType> = {
  [K in T]: { type: K; id: string; ts: number; payload: EventPayloads[K] };
}[T];

/** A command as delivered to its handler; `type` narrows `payload` in a switch. */
export type CommandMessage<T extends CommandType = CommandType> = {
  [K in T]: { type: K; id: string; ts: number; replyTo: string; payload: CommandPayloads[K] };
}[T];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventPayloadSchemas, type);
}

export function isCommandType(type: string): type is CommandType {
  return Object.hasOwn(commandPayloadSchemas, type);
}

export function isStateKey(key: string): key is StateKey {
  return Object.hasOwn(stateSchemas, key);
}
