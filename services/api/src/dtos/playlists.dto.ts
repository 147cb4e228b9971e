import { z } from 'zod';
import { id, idText, pageOf, paginationQuery, searchText, timestamp } from './common.dto.ts';
import { trackSchema } from './tracks.dto.ts';

const name = z.string().trim().min(1, 'must not be empty').max(200, 'at most 200 characters');
const description = z.string().trim().max(2000, 'at most 2000 characters').nullable();

export const playlistSchema = z.object({
  id,
  name: z.string(),
  description: z.string().nullable(),
  isPublic: z.boolean(),
  owner: z.object({ id, username: z.string() }),
  itemCount: z.number().int(),
  duration: z.number().describe('seconds, all items'),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type PlaylistDto = z.infer<typeof playlistSchema>;

export const playlistItemSchema = z.object({
  id,
  position: z.number().int().describe('0-based'),
  addedAt: timestamp,
  track: trackSchema,
});
export type PlaylistItemDto = z.infer<typeof playlistItemSchema>;

export const playlistDetailSchema = playlistSchema.extend({ items: z.array(playlistItemSchema) });
export type PlaylistDetailDto = z.infer<typeof playlistDetailSchema>;

export const playlistListQuery = z.object({
  scope: z
    .enum(['all', 'mine', 'public'])
    .default('all')
    .describe('all = mine and the public ones of others'),
  q: searchText.optional().describe('part of the name'),
  ...paginationQuery,
});
export type PlaylistListQuery = z.output<typeof playlistListQuery>;

export const playlistPage = pageOf(playlistSchema);

export const createPlaylistBody = z.strictObject({
  name,
  description: description.optional(),
  isPublic: z.boolean().default(false),
});
export type CreatePlaylistBody = z.output<typeof createPlaylistBody>;

export const updatePlaylistBody = z
  .strictObject({
    name: name.optional(),
    description: description.optional(),
    isPublic: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdatePlaylistBody = z.output<typeof updatePlaylistBody>;

export const MAX_PLAYLIST_ITEMS = 10_000;

export const addTracksBody = z
  .strictObject({
    trackId: id.optional(),
    trackIds: z.array(id).min(1).max(500).optional(),
    position: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('0-based place of the first new item; the end when omitted'),
  })
  .refine((body) => (body.trackId === undefined) !== (body.trackIds === undefined), {
    message: 'give exactly one of trackId and trackIds',
  });
export type AddTracksBody = z.output<typeof addTracksBody>;

export const reorderBody = z.strictObject({
  itemIds: z
    .array(id)
    .max(MAX_PLAYLIST_ITEMS)
    .describe('every item id of the playlist, in the new order'),
});
export type ReorderBody = z.output<typeof reorderBody>;

export const playPlaylistBody = z.strictObject({
  mode: z
    .enum(['replace', 'append'])
    .default('replace')
    .describe('replace the upcoming queue or append to it'),
});
export type PlayPlaylistBody = z.output<typeof playPlaylistBody>;

export const playlistPlayResult = z.object({ queued: z.number().int() });

export const playlistIdParams = z.object({ id: idText });
export const playlistItemParams = z.object({ id: idText, itemId: idText });
