import {
  albumListQuery,
  albumPage,
  artistListQuery,
  artistPage,
  trackIdParams,
  trackListQuery,
  trackPage,
  trackSchema,
} from '../dtos/tracks.dto.ts';
import { type ApiRouter, RawJson } from '../routing.ts';
import type { TracksService } from '../services/tracks.service.ts';

export function tracksController(routes: ApiRouter, tracks: TracksService): void {
  routes.get(
    '/tracks',
    {
      tag: 'library',
      summary: 'Search and list tracks',
      description:
        'Every word of `q` must appear in the title, artist or album (case and accents ignored). ' +
        'Filters match whole values, case-insensitively. Only playable tracks unless `status` says otherwise.',
      access: 'session',
      query: trackListQuery,
      response: trackPage,
    },
    async ({ query }) => new RawJson(await tracks.listJson(query)),
  );

  routes.get(
    '/tracks/:id',
    {
      tag: 'library',
      summary: 'One track',
      access: 'session',
      params: trackIdParams,
      response: trackSchema,
      errors: [404],
    },
    ({ params }) => tracks.get(params.id),
  );

  routes.get(
    '/tracks/:id/cover',
    {
      tag: 'library',
      summary: "The track's embedded cover art",
      access: 'session',
      params: trackIdParams,
      produces: { contentType: 'image/*', description: 'the image as stored in the file' },
      errors: [404],
    },
    async ({ params, req, res }) => {
      const cover = await tracks.cover(params.id, req.get('if-none-match'));
      res.setHeader('ETag', cover.etag);
      // Private: the route needs a session, so shared caches must not keep it.
      res.setHeader('Cache-Control', 'private, max-age=3600');
      if (cover.notModified) {
        res.status(304).end();
        return undefined;
      }
      res.setHeader('Content-Type', cover.contentType);
      res
        .status(200)
        .end(Buffer.from(cover.data.buffer, cover.data.byteOffset, cover.data.byteLength));
      return undefined;
    },
  );

  routes.get(
    '/artists',
    {
      tag: 'library',
      summary: 'Artists with their number of tracks and albums',
      access: 'session',
      query: artistListQuery,
      response: artistPage,
    },
    ({ query }) => tracks.artists(query),
  );

  routes.get(
    '/albums',
    {
      tag: 'library',
      summary: 'Albums with their number of tracks',
      access: 'session',
      query: albumListQuery,
      response: albumPage,
    },
    ({ query }) => tracks.albums(query),
  );
}
