import { z } from 'zod';
import { id, idText, pageOf, paginationQuery, searchText, timestamp } from './common.dto.ts';
import { trackSchema } from './tracks.dto.ts';

const name = z.string().trim().min(1, 'must not be empty').max(200, 'at most 200 characters');
const description = z.string().trim().max(2000, 'at most 2000 characters').nullable();

export const playlistKind = z
  .enum(['rotation', 'every_n_songs', 'every_n_minutes', 'hourly_at', 'once_at'])
  .describe(
    'rotation: weighted among the rotation playlists on air (or inside its schedule); ' +
      'every_n_songs: one track after every N songs; every_n_minutes: once N minutes passed; ' +
      'hourly_at: at minute N of every hour; once_at: one track at playAt',
  );
export type PlaylistKindDto = z.infer<typeof playlistKind>;
const playOrder = z
  .enum(['shuffle', 'random', 'sequential'])
  .describe('shuffle: no repeats in a round; the position is kept across restarts');
const startMode = z
  .enum(['after_track', 'interrupt'])
  .describe('hourly_at and once_at: let the track in progress end, or fade it out at the time');

/** The programming fields (read by all who see the playlist, written by admins). */
const programmingFields = {
  onAir: z.boolean().describe('takes part in programming (rotation, schedules, rules)'),
  kind: playlistKind,
  order: playOrder,
  weight: z.number().int().min(1).max(100).describe('its share among the rotation playlists'),
  jingle: z
    .boolean()
    .describe('played without crossfade, not counted against separation, not in the history'),
  interval: z
    .number()
    .int()
    .nullable()
    .describe('every_n_songs: N 1-100; every_n_minutes: N 1-1440; hourly_at: the minute 0-59'),
  playAt: z.iso.datetime({ offset: true }).nullable().describe('once_at: when its track plays'),
  startMode,
};

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
  ...programmingFields,
  playAt: timestamp.nullable(),
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

/** Programming fields a create or update may give (admin only); each optional. */
const programmingPatch = {
  onAir: programmingFields.onAir.optional(),
  kind: programmingFields.kind.optional(),
  order: programmingFields.order.optional(),
  weight: programmingFields.weight.optional(),
  jingle: programmingFields.jingle.optional(),
  interval: programmingFields.interval.optional(),
  playAt: programmingFields.playAt.optional(),
  startMode: programmingFields.startMode.optional(),
};
export const PROGRAMMING_FIELDS = Object.keys(
  programmingPatch,
) as (keyof typeof programmingPatch)[];

export interface ProgrammingValues {
  onAir: boolean;
  kind: PlaylistKindDto;
  order: z.infer<typeof playOrder>;
  weight: number;
  jingle: boolean;
  interval: number | null;
  playAt: string | null;
  startMode: z.infer<typeof startMode>;
}
export type ProgrammingPatch = Partial<ProgrammingValues>;

export const createPlaylistBody = z.strictObject({
  name,
  description: description.optional(),
  isPublic: z.boolean().default(false),
  ...programmingPatch,
});
export type CreatePlaylistBody = z.output<typeof createPlaylistBody>;

export const updatePlaylistBody = z
  .strictObject({
    name: name.optional(),
    description: description.optional(),
    isPublic: z.boolean().optional(),
    ...programmingPatch,
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
