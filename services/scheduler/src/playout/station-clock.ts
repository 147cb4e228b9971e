import { componentLogger, type Logger } from '@radio/core';
import type { AutoDj } from '../live/air-mixer.ts';
import type { StationOutputs } from '../outputs/station-outputs.ts';
import { BYTES_PER_FRAME, CHANNELS } from '../pcm.ts';
import { Clock } from './clock.ts';

/**
 * The playout: the clock pulls PCM from the air (AutoDJ or live) and hands every encoder the
 * block. Starts the outputs and the clock; returns the clock (stopped on close).
 */
export function startStationClock(parts: {
  /** The scheduler's root logger. */
  logger: Logger;
  intervalMs: number;
  produce: AutoDj;
  outputs: StationOutputs | null;
}): Clock {
  const { produce, outputs } = parts;
  const log = componentLogger(parts.logger, 'clock');
  const maxBlockFrames = 4410;
  const block = new Float32Array(maxBlockFrames * CHANNELS);
  const clock = new Clock({
    logger: log,
    intervalMs: parts.intervalMs,
    maxBlockFrames,
    onBlock: (frames, startFrame) => {
      try {
        produce(block, frames, startFrame);
        // Each encoder pipe may keep the buffer until written: give them a copy, not `block`.
        const pcm = Buffer.from(new Uint8Array(block.buffer, 0, frames * BYTES_PER_FRAME));
        outputs?.write(pcm, startFrame);
      } catch (error) {
        log.error({ err: error }, 'playout block failed');
      }
    },
  });
  outputs?.start();
  clock.start();
  return clock;
}
