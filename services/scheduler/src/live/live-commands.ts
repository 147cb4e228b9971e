import { type Bus, type LiveKickTarget, type LiveSource, liveKickTargetSchema } from '@radio/core';
import type { CommandRegistry } from '../control/registry.ts';
import { SchedulerError } from '../errors.ts';
import type { LiveInput } from './live-input.ts';

function describe(source: LiveSource): string {
  const seconds = Math.round((Date.now() - source.since) / 1000);
  const title = source.title === null ? 'none' : JSON.stringify(source.title);
  return `${source.dj.name} (id ${source.dj.id}) since ${new Date(source.since).toISOString()} (${seconds} s), format ${source.format}, bytes in ${source.bytesIn}, title ${title}`;
}

/**
 * `live.status` and `live.kick` on the control port, and `live.kick` on the bus: both call the
 * live input, as the player's commands call the controller.
 */
export function registerLiveCommands(
  registry: CommandRegistry,
  bus: Bus,
  input: LiveInput,
): () => void {
  const kick = (target: LiveKickTarget, djId?: number) => ({
    kicked: input.kick(target, djId).map((dj) => ({ id: dj.id, name: dj.name })),
  });
  const removers = [
    registry.add(
      'live.status',
      'live.status',
      'The live input: the DJ on air (since, title, bytes in), who waits, silence and recording.',
      () => {
        const state = input.state();
        const waiting = state.waiting.map((s) => `waiting: ${describe(s)}`);
        return {
          lf: [
            `on_air: ${state.onAir ? describe(state.onAir) : 'none (AutoDJ)'}`,
            ...(waiting.length > 0 ? waiting : ['waiting: none']),
            `silent: ${state.silent}`,
            `recording: ${state.recording}`,
          ],
        };
      },
    ),
    registry.add(
      'live.kick',
      'live.kick [on_air|waiting|all]',
      'Drops live sources: the DJ on air (default), those waiting, or all.',
      (args) => {
        const parsed = liveKickTargetSchema.safeParse(args.trim() || 'on_air');
        if (!parsed.success) {
          throw new SchedulerError('SCHEDULER_BAD_VALUE', 'live.kick takes on_air, waiting or all');
        }
        const { kicked } = kick(parsed.data);
        return kicked.length === 0
          ? 'nobody to kick'
          : `kicked: ${kicked.map((dj) => dj.name).join(', ')}`;
      },
    ),
    bus.handleCommands({ 'live.kick': ({ target, djId }) => kick(target, djId) }),
    bus.onEvent((event) => input.listeners(event.payload.total), ['stream.listeners']),
  ];
  return () => {
    for (const remove of removers) remove();
  };
}
