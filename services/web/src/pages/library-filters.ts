import { type SortOrder, TRACK_SORTS, type TrackSort, type TrackStatus } from '../api/types.ts';

/* The library page's filters as the URL holds them, so a search can be bookmarked. */

const SORTS = new Set<string>(TRACK_SORTS);
export const PAGE_SIZES = [25, 50, 100];

export interface Filters {
  q: string;
  artist: string;
  album: string;
  genre: string;
  folder: string;
  status: TrackStatus | 'all';
  sort: TrackSort;
  order: SortOrder;
  page: number;
  limit: number;
}

/** The filters as the URL holds them, so a search can be bookmarked and survives a reload. */
export function readFilters(search: string): Filters {
  const params = new URLSearchParams(search);
  const sort = params.get('sort') ?? 'artist';
  const status = params.get('status');
  const page = Number(params.get('page') ?? '1');
  const limit = Number(params.get('limit') ?? '50');
  return {
    q: params.get('q') ?? '',
    artist: params.get('artist') ?? '',
    album: params.get('album') ?? '',
    genre: params.get('genre') ?? '',
    folder: params.get('folder') ?? '',
    status: status === 'invalid' || status === 'missing' || status === 'all' ? status : 'ok',
    sort: (SORTS.has(sort) ? sort : 'artist') as TrackSort,
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    page: Number.isInteger(page) && page > 0 ? page : 1,
    limit: PAGE_SIZES.includes(limit) ? limit : 50,
  };
}
