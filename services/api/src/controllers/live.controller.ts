import {
  liveKickBody,
  liveKickResult,
  liveStatusSchema,
  recordingIdParams,
  recordingListQuery,
  recordingPage,
} from '../dtos/live.dto.ts';
import { ApiError } from '../errors.ts';
import { GO_LIVE_PATH } from '../live/go-live-socket.ts';
import type { Live } from '../live/live.ts';
import type { ApiRouter } from '../routing.ts';

const tag = 'live';

/** The live input's state, kicking its sources, going live from the browser, recordings. */
export function liveController(routes: ApiRouter, live: Live): void {
  routes.get(
    '/live',
    {
      tag,
      summary: 'Who is live: the DJ on air, those waiting, silence, recording',
      description:
        'As the scheduler last published it (`live.state` on the event stream too); nobody on ' +
        'air when the scheduler has not said.',
      access: 'public',
      response: liveStatusSchema,
    },
    () => live.status.state(),
  );

  routes.post(
    '/live/kick',
    {
      tag,
      summary: 'Disconnect the live DJ, the one waiting, or both',
      description:
        'The AutoDJ (or the waiting DJ) takes over at once. Answers whom it dropped. An admin ' +
        'drops anyone; a DJ only itself (403 when the target is another DJ).',
      access: 'dj',
      body: liveKickBody,
      response: liveKickResult,
      errors: [403, 502, 503],
    },
    ({ body, user }) => live.status.kick(body.target, user),
  );

  routes.get(
    GO_LIVE_PATH,
    {
      tag,
      summary: 'Go live from the browser (WebSocket)',
      description:
        'Open as a WebSocket from the web app (same origin, the session cookie, the dj role and ' +
        'enabled broadcast credentials; refused with 401, 403 or 404 in the error shape ' +
        'otherwise). Send the audio as binary messages of WebM/Opus (MediaRecorder). The server ' +
        'sends `{"type":"connected"}` once the live input took the source, or ' +
        '`{"type":"refused","status","message"}` and closes with code 4001; code 4002 means the ' +
        'live input ended the connection (kicked). A plain GET answers 426.',
      access: 'dj',
      errors: [404, 426],
    },
    async () => {
      throw new ApiError('API_UPGRADE_REQUIRED');
    },
  );

  routes.get(
    '/recordings',
    {
      tag,
      summary: 'Recorded live shows, newest first',
      description: 'Admins see every show; a DJ sees its own.',
      access: 'dj',
      query: recordingListQuery,
      response: recordingPage,
    },
    ({ query, user }) => live.recordings.list(query, user),
  );

  routes.get(
    '/recordings/:id/file',
    {
      tag,
      summary: "Download a show's recording (MP3)",
      access: 'dj',
      params: recordingIdParams,
      produces: {
        contentType: 'audio/mpeg',
        description: 'the show as it went out, MP3 128 kbit/s',
      },
      errors: [404],
    },
    async ({ params, user, res }) => {
      await live.recordings.download(params.id, user, res);
      return undefined;
    },
  );

  routes.delete(
    '/recordings/:id',
    {
      tag,
      summary: "Delete a show's recording",
      description: 'Admins any; a DJ its own. 409 while the show is still on air.',
      access: 'dj',
      params: recordingIdParams,
      status: 204,
      errors: [404, 409],
    },
    async ({ params, user }) => {
      await live.recordings.delete(params.id, user);
      return undefined;
    },
  );
}
