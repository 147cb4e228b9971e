import type { ApiRouter } from '../routing.ts';
import type { LiveEvents } from '../services/live-events.service.ts';

export function eventsController(routes: ApiRouter, events: LiveEvents): void {
  routes.get(
    '/events',
    {
      tag: 'events',
      summary: 'Live events (Server-Sent Events)',
      description:
        'First the current state (player.state, player.now-playing, queue.changed, stream.listeners, ' +
        'library.scan, library.analysis, live.state, each when known), then `ready`, then every change as it ' +
        'happens: player.now-playing, player.state, queue.changed, stream.listeners, stream.source, ' +
        'library.scan, library.changed, library.analysis (progress of the loudness and cue ' +
        'analysis, at most once a second while it runs), playout.dead_air (the dead-air guard ' +
        'skipped a silent track: silentSeconds, trackId, title, action), live.state (who is on air, ' +
        'who waits, silent, recording; also in the first state), live.connected, ' +
        'live.disconnected, live.silent and live.resumed ({dj: {id, name}, mount, at}). ' +
        '`timeline` (schedule.timeline: the plan changed; its first 10 entries, also in the ' +
        'first state; for listeners a request entry\'s reason is "listener request") and `request` ' +
        '(requests.updated: {requests: [{id, userId, trackId, status, plannedAt, playedAt, reason}]}, ' +
        "only a listener's own requests; admins and DJs get all). " +
        'player.state carries ' +
        '`fallback` {reason, message} while the mounts play the fallback instead of music. ' +
        '`data` is the JSON payload of the bus event. ' +
        'One client address may hold a few streams at once (429 API_TOO_MANY_STREAMS beyond).',
      access: 'public',
      produces: { contentType: 'text/event-stream', description: 'an endless event stream' },
      errors: [429, 503],
    },
    async ({ req, res }) => {
      await events.attach(req, res);
      return undefined;
    },
  );
}
