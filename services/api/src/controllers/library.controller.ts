import type { Request } from 'express';
import {
  bulkTagEditSchema,
  bulkTagResultSchema,
  createFolderSchema,
  folderListSchema,
  folderSchema,
  moveResultSchema,
  moveTracksSchema,
  tagEditSchema,
} from '../dtos/library.dto.ts';
import { trackIdParams, trackSchema } from '../dtos/tracks.dto.ts';
import { ApiError } from '../errors.ts';
import type { ApiRouter } from '../routing.ts';
import type { LibraryFoldersService } from '../services/library-folders.service.ts';
import { type LibraryTagsService, MAX_COVER_BYTES } from '../services/library-tags.service.ts';

/** The image body of PUT /tracks/:id/cover, read up to `max` bytes (413 beyond). */
async function readImage(req: Request, max: number): Promise<Buffer> {
  const declared = Number(req.get('content-length') ?? 0);
  if (declared > max) {
    throw new ApiError('API_PAYLOAD_TOO_LARGE', `a cover picture may be up to ${max} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      throw new ApiError('API_PAYLOAD_TOO_LARGE', `a cover picture may be up to ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function libraryController(
  routes: ApiRouter,
  tags: LibraryTagsService,
  folders: LibraryFoldersService,
): void {
  routes.patch(
    '/tracks/:id/tags',
    {
      tag: 'library',
      summary: "Edit a track's tags, written into its file",
      description:
        'Writes ID3v2.4 (MP3), Vorbis comments (FLAC, Ogg, Opus) or MP4 atoms (M4A) with a ' +
        'stream copy: the audio is not re-encoded. Answers once the library index shows the new ' +
        'tags. null or "" removes a tag; unknown keys are refused.',
      access: 'dj',
      params: trackIdParams,
      body: tagEditSchema,
      response: trackSchema,
      errors: [404, 409, 415, 422],
    },
    ({ params, body, user }) => tags.edit(params.id, body, user),
  );

  routes.patch(
    '/tracks/tags',
    {
      tag: 'library',
      summary: 'Edit the same tags of many tracks',
      description: 'Each track succeeds or fails alone: `failed` says why for each.',
      access: 'dj',
      body: bulkTagEditSchema,
      response: bulkTagResultSchema,
    },
    ({ body, user }) => tags.editMany(body.ids, body.tags, user),
  );

  routes.put(
    '/tracks/:id/cover',
    {
      tag: 'library',
      summary: "Replace a track's cover picture",
      description:
        'The body is the picture itself, `Content-Type: image/jpeg` or `image/png`, up to 10 MB. ' +
        'Written into the file: an attached picture (MP3, FLAC, M4A) or METADATA_BLOCK_PICTURE (Ogg, Opus).',
      access: 'dj',
      params: trackIdParams,
      consumes: { contentType: 'image/jpeg', description: 'the picture, image/jpeg or image/png' },
      response: trackSchema,
      errors: [404, 409, 413, 415, 422],
    },
    async ({ params, req, user }) => {
      const image = await readImage(req, MAX_COVER_BYTES);
      return tags.setCover(params.id, image, req.get('content-type'), user);
    },
  );

  routes.delete(
    '/tracks/:id/cover',
    {
      tag: 'library',
      summary: "Remove a track's cover picture from its file",
      access: 'dj',
      params: trackIdParams,
      response: trackSchema,
      errors: [404, 409, 415, 422],
    },
    ({ params, user }) => tags.removeCover(params.id, user),
  );

  routes.get(
    '/library/folders',
    {
      tag: 'library',
      summary: 'The folders of the music library with their track counts',
      description: "Folders tracks are in, and empty folders on disk; '' is the music folder.",
      access: 'session',
      response: folderListSchema,
    },
    async () => ({ folders: await folders.list() }),
  );

  routes.post(
    '/library/folders',
    {
      tag: 'library',
      summary: 'Create a folder in the music library',
      access: 'dj',
      body: createFolderSchema,
      status: 201,
      response: folderSchema,
      errors: [409],
    },
    ({ body, user }) => folders.create(body.path, user),
  );

  routes.post(
    '/tracks/move',
    {
      tag: 'library',
      summary: 'Move tracks to a folder',
      description:
        'The folder is created when missing. A file name taken there fails that track ' +
        '(API_PATH_TAKEN); nothing is overwritten. Tracks keep their ids.',
      access: 'dj',
      body: moveTracksSchema,
      response: moveResultSchema,
    },
    ({ body, user }) => folders.move(body.ids, body.folder, user),
  );
}
