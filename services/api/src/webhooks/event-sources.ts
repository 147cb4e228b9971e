import type { Bus, EventMessage, LiveSession } from '@radio/core';
import type { LiveData, WebhookEvent } from './events.ts';

/*
 * The webhook events that are one bus event each. `live.*` come from the scheduler's live
 * input once it publishes them; until then they never fire.
 */

const FOLLOWED = [
  'player.now-playing',
  'playout.dead_air',
  'live.connected',
  'live.disconnected',
] as const;

type Followed = EventMessage<(typeof FOLLOWED)[number]>;

function liveData(payload: LiveSession): LiveData {
  return { dj: payload.dj, mount: payload.mount, at: new Date(payload.at).toISOString() };
}

export function toWebhookEvent(message: Followed): WebhookEvent {
  const at = new Date(message.ts);
  switch (message.type) {
    case 'player.now-playing': {
      const p = message.payload;
      return {
        event: 'song.changed',
        // The same track start announced again (a settle, a reconnect) is the same song change.
        key: `${p.startedAt}:${p.trackId ?? p.path ?? p.title}`,
        at: new Date(p.startedAt),
        data: {
          trackId: p.trackId,
          title: p.title,
          artist: p.artist,
          album: p.album,
          duration: p.duration,
          startedAt: new Date(p.startedAt).toISOString(),
          source: p.source,
        },
      };
    }
    case 'playout.dead_air':
      return {
        event: 'playout.dead_air',
        key: message.id,
        at,
        data: { ...message.payload, at: at.toISOString() },
      };
    case 'live.connected':
    case 'live.disconnected':
      return { event: message.type, key: message.id, at, data: liveData(message.payload) };
  }
}

/** Follows the bus and hands each event to `sink`. Returns how to stop. */
export function followBusEvents(bus: Bus, sink: (event: WebhookEvent) => void): () => void {
  return bus.onEvent<(typeof FOLLOWED)[number]>(
    (message) => sink(toWebhookEvent(message)),
    FOLLOWED,
  );
}
