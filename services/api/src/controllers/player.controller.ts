import { emptyObject } from '../dtos/common.dto.ts';
import {
  amplifyBody,
  amplifySchema,
  historyPage,
  historyQuery,
  playBody,
  playerSchema,
  playerStatusSchema,
  queueBody,
  queuePushResultSchema,
  queueSnapshotSchema,
} from '../dtos/player.dto.ts';
import type { ApiRouter } from '../routing.ts';
import type { PlayerService } from '../services/player.service.ts';

export function playerController(routes: ApiRouter, player: PlayerService): void {
  const unavailable = {
    errors: [503],
    description: 'Answered by the scheduler over the bus; 503 when it does not answer in time.',
  };

  routes.get(
    '/player',
    {
      tag: 'player',
      summary: 'State, now playing with position, queue and amplify',
      access: 'session',
      response: playerSchema,
      ...unavailable,
    },
    () => player.get(),
  );

  routes.post(
    '/player/play',
    {
      tag: 'player',
      summary: 'Play (optionally a given track or playlist)',
      access: 'dj',
      body: playBody,
      response: playerStatusSchema,
      ...unavailable,
      errors: [404, 409, 503],
    },
    ({ user, body }) => player.play(user, body),
  );

  const simple = [
    ['pause', 'Pause', () => player.pause()],
    ['stop', 'Stop', () => player.stop()],
    ['resume', 'Resume', () => player.resume()],
    ['skip', 'Skip to the next track', () => player.skip()],
  ] as const;
  for (const [action, summary, run] of simple) {
    routes.post(
      `/player/${action}`,
      {
        tag: 'player',
        summary,
        access: 'dj',
        // No options: anything sent is a mistake worth a 400.
        body: emptyObject,
        response: playerStatusSchema,
        ...unavailable,
      },
      run,
    );
  }

  routes.post(
    '/player/queue',
    {
      tag: 'player',
      summary: 'Queue a track (by id) or a URI',
      access: 'dj',
      body: queueBody,
      status: 201,
      response: queuePushResultSchema,
      ...unavailable,
      errors: [404, 409, 503],
    },
    ({ body }) => player.enqueue(body),
  );

  routes.get(
    '/player/queue',
    {
      tag: 'player',
      summary: 'The upcoming queue',
      access: 'session',
      response: queueSnapshotSchema,
      ...unavailable,
    },
    () => player.queue(),
  );

  routes.get(
    '/player/history',
    {
      tag: 'player',
      summary: 'What was played, newest first',
      access: 'session',
      query: historyQuery,
      response: historyPage,
    },
    ({ query }) => player.history(query),
  );

  routes.put(
    '/player/amplify',
    {
      tag: 'player',
      summary: 'Set the output gain',
      access: 'dj',
      body: amplifyBody,
      response: amplifySchema,
      ...unavailable,
    },
    ({ body }) => player.setAmplify(body.value),
  );
}
