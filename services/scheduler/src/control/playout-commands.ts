import type { PlayoutStatus } from '../playout/on-air-watch.ts';
import type { CommandRegistry } from './registry.ts';

/**
 * The `playout.status` answer, one `key: value` line each (radioctl and the API read it):
 * `state`, `on_air` (track, fallback or silence), `fallback` (why, or `none`),
 * `fallback_reason` (empty-library, no-playable-tracks or `none`), `dead_air_skips`,
 * `dead_air_seconds`.
 */
export function playoutStatusLines(status: PlayoutStatus): string[] {
  return [
    `state: ${status.state}`,
    `on_air: ${status.onAir}`,
    `fallback: ${status.fallback?.message ?? 'none'}`,
    `fallback_reason: ${status.fallback?.reason ?? 'none'}`,
    `dead_air_skips: ${status.deadAirSkips}`,
    `dead_air_seconds: ${status.deadAirSeconds}`,
  ];
}

/** The playout's own health on the control port: what is on air, the fallback, dead air. */
export function registerPlayoutCommands(
  registry: CommandRegistry,
  status: () => PlayoutStatus,
): void {
  registry.add(
    'playout.status',
    'playout.status',
    'What the mounts carry (track, fallback or silence), why the fallback plays, and how many silent tracks the dead-air guard skipped.',
    () => playoutStatusLines(status()),
  );
}
