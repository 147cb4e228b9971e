import type { Bus, Logger, PlayoutFallback, StateKey, StateValues } from '@radio/core';

/** A state key's value, or null when it is unknown or the bus does not answer. */
export async function readState<K extends StateKey>(
  bus: Bus,
  key: K,
  logger: Logger,
): Promise<StateValues[K] | null> {
  try {
    return await bus.getState(key);
  } catch (error) {
    logger.debug({ err: error, key }, 'bus state unavailable');
    return null;
  }
}

/**
 * Why the mounts carry the fallback (FALLBACK_FILE or the station-ID tone) instead of music,
 * as the scheduler's player state says; null while music plays or when that is unknown.
 */
export async function fallbackOnAir(bus: Bus, logger: Logger): Promise<PlayoutFallback | null> {
  return (await readState(bus, 'player-state', logger))?.fallback ?? null;
}
