import {
  deleteResultSchema,
  trashIdParams,
  trashListQuery,
  trashPage,
} from '../dtos/library.dto.ts';
import { trackIdParams, trackSchema } from '../dtos/tracks.dto.ts';
import type { ApiRouter } from '../routing.ts';
import type { TrashService } from '../services/trash.service.ts';

export function trashController(routes: ApiRouter, trash: TrashService): void {
  routes.delete(
    '/tracks/:id',
    {
      tag: 'library',
      summary: 'Delete a track: its file goes to the trash',
      description:
        'The file moves to the trash (restorable for TRASH_DAYS), the track leaves every ' +
        'playlist and the queue. A track on air plays to its end (`onAir: true`). Admins ' +
        'delete any track; a DJ only the tracks it uploaded (403 otherwise).',
      access: 'dj',
      params: trackIdParams,
      response: deleteResultSchema,
      errors: [403, 404, 409],
    },
    ({ params, user }) => trash.delete(params.id, user),
  );

  routes.get(
    '/trash',
    {
      tag: 'library',
      summary: 'Deleted tracks that can be restored, newest first',
      access: 'dj',
      query: trashListQuery,
      response: trashPage,
    },
    ({ query }) => trash.list(query),
  );

  routes.post(
    '/trash/:id/restore',
    {
      tag: 'library',
      summary: 'Put a deleted track back where it was',
      description: 'The same track (id, playlists aside) comes back. 409 when the path is taken.',
      access: 'dj',
      params: trashIdParams,
      response: trackSchema,
      errors: [404, 409],
    },
    ({ params, user }) => trash.restore(params.id, user),
  );

  routes.delete(
    '/trash/:id',
    {
      tag: 'library',
      summary: 'Delete a trashed file for good (admin)',
      access: 'admin',
      params: trashIdParams,
      status: 204,
      errors: [404],
    },
    async ({ params, user }) => {
      await trash.purge(params.id, user);
      return undefined;
    },
  );
}
