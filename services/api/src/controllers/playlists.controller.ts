import {
  addTracksBody,
  createPlaylistBody,
  playlistDetailSchema,
  playlistIdParams,
  playlistItemParams,
  playlistListQuery,
  playlistPage,
  playlistPlayResult,
  playPlaylistBody,
  reorderBody,
  updatePlaylistBody,
} from '../dtos/playlists.dto.ts';
import type { ApiRouter } from '../routing.ts';
import type { PlaylistsService } from '../services/playlists.service.ts';

const programming =
  'The programming fields (onAir, kind, order, weight, jingle, interval, playAt, startMode) ' +
  'are for admins only (403 otherwise); interval is required per kind (every_n_songs 1-100, ' +
  'every_n_minutes 1-1440, hourly_at 0-59) and playAt for once_at.';

export function playlistsController(routes: ApiRouter, playlists: PlaylistsService): void {
  routes.get(
    '/playlists',
    {
      tag: 'playlists',
      summary: 'My playlists and the public ones',
      access: 'session',
      query: playlistListQuery,
      response: playlistPage,
    },
    ({ user, query }) => playlists.list(user, query),
  );

  routes.post(
    '/playlists',
    {
      tag: 'playlists',
      summary: 'Create a playlist',
      description: programming,
      access: 'session',
      body: createPlaylistBody,
      status: 201,
      response: playlistDetailSchema,
      errors: [403],
    },
    ({ user, body }) => playlists.create(user, body),
  );

  routes.get(
    '/playlists/:id',
    {
      tag: 'playlists',
      summary: 'A playlist with its items',
      access: 'session',
      params: playlistIdParams,
      response: playlistDetailSchema,
      errors: [404],
    },
    ({ user, params }) => playlists.get(user, params.id),
  );

  routes.patch(
    '/playlists/:id',
    {
      tag: 'playlists',
      summary: 'Rename, describe, publish (owner or admin); program (admin)',
      description: programming,
      access: 'session',
      params: playlistIdParams,
      body: updatePlaylistBody,
      response: playlistDetailSchema,
      errors: [403, 404],
    },
    ({ user, params, body }) => playlists.update(user, params.id, body),
  );

  routes.delete(
    '/playlists/:id',
    {
      tag: 'playlists',
      summary: 'Delete a playlist (owner or admin)',
      access: 'session',
      params: playlistIdParams,
      status: 204,
      errors: [403, 404],
    },
    async ({ user, params }) => {
      await playlists.delete(user, params.id);
      return undefined;
    },
  );

  routes.post(
    '/playlists/:id/tracks',
    {
      tag: 'playlists',
      summary: 'Add tracks at a position (owner or admin)',
      access: 'session',
      params: playlistIdParams,
      body: addTracksBody,
      status: 201,
      response: playlistDetailSchema,
      errors: [403, 404, 409],
    },
    ({ user, params, body }) => playlists.addTracks(user, params.id, body),
  );

  routes.delete(
    '/playlists/:id/tracks/:itemId',
    {
      tag: 'playlists',
      summary: 'Remove an item (owner or admin)',
      access: 'session',
      params: playlistItemParams,
      status: 204,
      errors: [403, 404],
    },
    async ({ user, params }) => {
      await playlists.removeItem(user, params.id, params.itemId);
      return undefined;
    },
  );

  routes.put(
    '/playlists/:id/tracks',
    {
      tag: 'playlists',
      summary: 'Reorder the items (owner or admin)',
      access: 'session',
      params: playlistIdParams,
      body: reorderBody,
      response: playlistDetailSchema,
      errors: [403, 404],
    },
    ({ user, params, body }) => playlists.reorder(user, params.id, body),
  );

  routes.post(
    '/playlists/:id/play',
    {
      tag: 'playlists',
      summary: 'Send the playlist to the scheduler (dj or admin)',
      description: 'Replaces the upcoming queue or appends to it.',
      access: 'dj',
      params: playlistIdParams,
      body: playPlaylistBody,
      response: playlistPlayResult,
      errors: [404, 409, 503],
    },
    ({ user, params, body }) => playlists.play(user, params.id, body),
  );
}
