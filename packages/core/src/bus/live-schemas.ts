/** The live input's messages: who is on air, waiting, silent. */
import { z } from 'zod';
import { count, epochMs, id, mountName, seconds } from './primitives.ts';

/** A DJ's live source on the air (the scheduler's live input), or leaving it. */
export const liveSessionSchema = z.object({
  dj: z.object({ id, name: z.string().min(1) }),
  /** The mount the DJ broadcasts to. */
  mount: mountName,
  at: epochMs,
});
export type LiveSession = z.infer<typeof liveSessionSchema>;

/** A connected DJ stayed below -50 dBFS for LIVE_SILENCE_SECONDS: the AutoDJ took over. */
export const liveSilentSchema = liveSessionSchema.extend({ silentSeconds: seconds });
export type LiveSilent = z.infer<typeof liveSilentSchema>;

/** One source connected to the live input, on air or waiting. */
export const liveSourceSchema = z.object({
  dj: z.object({ id, name: z.string().min(1) }),
  /** When it connected. */
  since: epochMs,
  /** The title it sent (updinfo or stream headers); null until it sends one. */
  title: z.string().nullable(),
  /** Bytes received from the client so far. */
  bytesIn: count,
  /** What it sends, as detected: `mp3`, `aac`, `vorbis`, `opus`, `flac`, `webm`. */
  format: z.string().min(1),
});
export type LiveSource = z.infer<typeof liveSourceSchema>;

/** The live input as a whole: who is on air, who waits to take over, what is recorded. */
export const liveStateSchema = z.object({
  onAir: liveSourceSchema.nullable(),
  /** Connected while another DJ is on air; the first takes over the moment that one leaves. */
  waiting: z.array(liveSourceSchema),
  /** The DJ on air is connected but silent, faded out for the AutoDJ until sound returns. */
  silent: z.boolean(),
  /** The show on air is being recorded. */
  recording: z.boolean(),
});
export type LiveState = z.infer<typeof liveStateSchema>;

export const liveKickTargetSchema = z.enum(['on_air', 'waiting', 'all']);
export type LiveKickTarget = z.infer<typeof liveKickTargetSchema>;
