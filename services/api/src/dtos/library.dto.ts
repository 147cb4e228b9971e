import { z } from 'zod';
import { id, idText, pageOf, paginationQuery, timestamp } from './common.dto.ts';
import { trackSchema } from './tracks.dto.ts';

/* Editing the library: tags written to the files, folders, moves, the trash. */

const tagText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `at most ${max} characters`)
    .nullable()
    .optional()
    .describe('null or an empty string removes the tag');

/** The tags one edit may change; a key left out stays as it is. Unknown keys are refused. */
export const tagEditSchema = z
  .strictObject({
    title: tagText(500),
    artist: tagText(500),
    album: tagText(500),
    albumArtist: tagText(500),
    genre: tagText(200),
    year: z.number().int().min(1000).max(2999).nullable().optional(),
    trackNumber: z.number().int().min(1).max(9999).nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one tag to change',
  });
export type TagEdit = z.output<typeof tagEditSchema>;

const trackIds = z.array(id).min(1).max(500).describe('at most 500 tracks at once');

export const bulkTagEditSchema = z.strictObject({ ids: trackIds, tags: tagEditSchema });

const failure = z.object({
  id,
  error: z.object({ code: z.string(), message: z.string() }),
});
export type BulkFailure = z.infer<typeof failure>;

export const bulkTagResultSchema = z.object({
  updated: z.array(trackSchema),
  failed: z.array(failure),
});

export const folderSchema = z.object({
  path: z.string().describe("relative to the music folder; '' is the music folder itself"),
  tracks: z.number().int().describe('tracks directly in this folder'),
  total: z.number().int().describe('tracks in this folder and the folders under it'),
});
export type FolderDto = z.infer<typeof folderSchema>;

export const folderListSchema = z.object({ folders: z.array(folderSchema) });

const folderPath = z.string().max(1024, 'at most 1024 characters');

export const createFolderSchema = z.strictObject({
  path: folderPath.min(1).describe('e.g. "Jazz/Live"; no "..", no hidden names'),
});

export const moveTracksSchema = z.strictObject({
  ids: trackIds,
  folder: folderPath.describe("the destination folder; '' is the music folder itself"),
});

export const moveResultSchema = z.object({
  moved: z.array(trackSchema),
  failed: z.array(failure),
});

export const deleteResultSchema = z.object({
  trashId: id,
  removedFromPlaylists: z.number().int().describe('playlist entries removed'),
  removedFromQueue: z.number().int().describe('queue entries removed'),
  removedRequests: z
    .number()
    .int()
    .describe("listeners' pending requests of the track removed (their reason says why)"),
  onAir: z.boolean().describe('the track is on air now: it plays to its end'),
});
export type DeleteResult = z.infer<typeof deleteResultSchema>;

export const trashEntrySchema = z.object({
  id,
  trackId: id.nullable(),
  originalPath: z.string(),
  title: z.string(),
  artist: z.string().nullable(),
  size: z.number().describe('bytes'),
  deletedBy: id.nullable(),
  deletedAt: timestamp,
  expiresAt: timestamp,
});
export type TrashEntryDto = z.infer<typeof trashEntrySchema>;

export const trashListQuery = z.object({ ...paginationQuery });
export type TrashListQuery = z.output<typeof trashListQuery>;
export const trashPage = pageOf(trashEntrySchema);
export const trashIdParams = z.object({ id: idText });
