import { z } from 'zod';
import {
  id,
  idText,
  intQuery,
  pageOf,
  paginationQuery,
  searchText,
  timestamp,
} from './common.dto.ts';

export const trackStatusSchema = z.enum(['ok', 'invalid', 'missing']);

export const trackAnalysisSchema = z
  .object({
    status: z.enum(['pending', 'done', 'failed']),
    loudness: z.number().nullable().describe('integrated loudness, LUFS (EBU R128)'),
    loudnessRange: z.number().nullable().describe('loudness range, LU'),
    truePeak: z.number().nullable().describe('true peak, dBTP'),
    cueIn: z.number().nullable().describe('seconds: the first audible moment'),
    cueOut: z.number().nullable().describe('seconds: the end of the last audible moment'),
    fadePoint: z
      .number()
      .nullable()
      .describe('seconds: where the ending falls away and the next track may start'),
    replayGain: z
      .number()
      .nullable()
      .describe("dB, the file's ReplayGain track tag (used until the analysis is done)"),
    error: z.string().nullable().describe('why the analysis failed (the track still plays)'),
    analyzedAt: timestamp.nullable(),
  })
  .describe(
    'What the background analysis measured, once per file version; numbers are null until it is done',
  );
export type TrackAnalysisDto = z.infer<typeof trackAnalysisSchema>;

export const trackSchema = z.object({
  id,
  /** Relative to the music folder. */
  path: z.string(),
  title: z.string(),
  artist: z.string().nullable(),
  album: z.string().nullable(),
  genre: z.string().nullable(),
  year: z.number().int().nullable(),
  trackNo: z.number().int().nullable(),
  duration: z.number().nullable().describe('seconds'),
  format: z.string(),
  bitrate: z.number().nullable().describe('bits per second'),
  sampleRate: z.number().nullable(),
  channels: z.number().nullable(),
  hasCover: z.boolean(),
  coverUrl: z.string().nullable(),
  size: z.number().describe('bytes'),
  status: trackStatusSchema,
  error: z.string().nullable(),
  addedAt: timestamp,
  updatedAt: timestamp,
  analysis: trackAnalysisSchema,
});
export type TrackDto = z.infer<typeof trackSchema>;

export const TRACK_SORTS = [
  'artist',
  'album',
  'title',
  'genre',
  'year',
  'duration',
  'added',
] as const;
export type TrackSort = (typeof TRACK_SORTS)[number];

export const trackListQuery = z.object({
  q: searchText.optional().describe('words that must all appear in the title, artist or album'),
  artist: searchText.optional().describe('exact artist (case-insensitive)'),
  album: searchText.optional().describe('exact album (case-insensitive)'),
  genre: searchText.optional().describe('exact genre (case-insensitive)'),
  status: z.enum(['ok', 'invalid', 'missing', 'all']).default('ok'),
  folder: searchText
    .optional()
    .describe('only tracks in this folder (relative to the music folder) and the folders under it'),
  sort: z.enum(TRACK_SORTS).default('artist'),
  order: z.enum(['asc', 'desc']).default('asc'),
  ...paginationQuery,
});
export type TrackListQuery = z.output<typeof trackListQuery>;

export const trackPage = pageOf(trackSchema);

export const artistSchema = z.object({
  name: z.string(),
  tracks: z.number().int(),
  albums: z.number().int(),
});
export type ArtistDto = z.infer<typeof artistSchema>;

export const albumSchema = z.object({
  name: z.string(),
  /** The album's artist, or null when its tracks have several. */
  artist: z.string().nullable(),
  tracks: z.number().int(),
  year: z.number().int().nullable(),
  duration: z.number().describe('seconds, all tracks'),
});
export type AlbumDto = z.infer<typeof albumSchema>;

export const artistListQuery = z.object({
  q: searchText.optional().describe('part of the artist name'),
  page: paginationQuery.page,
  limit: intQuery(1, 500, 100, 'items per page'),
});
export type ArtistListQuery = z.output<typeof artistListQuery>;

export const albumListQuery = z.object({
  q: searchText.optional().describe('part of the album name'),
  artist: searchText.optional().describe('exact artist (case-insensitive)'),
  page: paginationQuery.page,
  limit: intQuery(1, 500, 100, 'items per page'),
});
export type AlbumListQuery = z.output<typeof albumListQuery>;

export const artistPage = pageOf(artistSchema);
export const albumPage = pageOf(albumSchema);

export const trackIdParams = z.object({ id: idText });
