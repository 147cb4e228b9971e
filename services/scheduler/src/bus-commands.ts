import type { Bus } from '@radio/core';
import { type PlayoutController, toQueueItem } from './controller.ts';

/**
 * The scheduler's answers on the bus: each command calls the same controller function as the
 * matching control-port command. A SchedulerError is answered with its code.
 */
export function registerBusCommands(bus: Bus, controller: PlayoutController): () => void {
  return bus.handleCommands({
    'player.play': (payload) => controller.play(payload),
    'player.pause': () => controller.pause(),
    'player.stop': () => controller.stop(),
    'player.resume': () => controller.resume(),
    'player.skip': () => {
      controller.skip();
      return controller.status();
    },
    'player.status': () => controller.status(),
    'queue.push': async (payload) => {
      const entry =
        payload.trackId !== undefined
          ? controller.pushTrack(payload.trackId)
          : await controller.push(payload.uri ?? '');
      return { requestId: entry.requestId, item: toQueueItem(entry) };
    },
    'queue.list': () => ({ items: controller.queue().map(toQueueItem) }),
    'queue.remove': (payload) => controller.removeTrack(payload.trackId),
    'playlist.play': async (payload) => ({
      queued: await controller.playPlaylist(payload.playlistId, payload.mode),
    }),
    'amplify.get': () => ({ amplify: controller.getAmplify() }),
    'amplify.set': async (payload) => ({ amplify: await controller.setAmplify(payload.value) }),
    'library.rescan': () => controller.rescan(),
  });
}
