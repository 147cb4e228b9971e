import type { TrackDto, TrackSort } from '../dtos/tracks.dto.ts';
import { compareText, sortKey } from './text.ts';

type Field = 'title' | 'artist' | 'album' | 'genre';
type SortColumn =
  | { field: Field }
  | { number: (track: TrackDto) => number | null }
  | { text: (track: TrackDto) => string };

// The first column is the one asked for; the rest break ties (ascending), then the id.
const SORT_COLUMNS: Record<TrackSort, SortColumn[]> = {
  artist: [
    { field: 'artist' },
    { field: 'album' },
    { number: (t) => t.trackNo },
    { field: 'title' },
  ],
  album: [{ field: 'album' }, { number: (t) => t.trackNo }, { field: 'title' }],
  title: [{ field: 'title' }, { field: 'artist' }],
  genre: [
    { field: 'genre' },
    { field: 'artist' },
    { field: 'album' },
    { number: (t) => t.trackNo },
  ],
  year: [
    { number: (t) => t.year },
    { field: 'artist' },
    { field: 'album' },
    { number: (t) => t.trackNo },
  ],
  duration: [{ number: (t) => t.duration }, { field: 'title' }],
  added: [{ text: (t) => t.addedAt }],
};

/** -1, 0, 1 with null (unknown) after every value whatever the direction. */
function compareNullable(a: number | null, b: number | null, direction: number): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -direction : direction;
}

/** The tracks' indexes in a sort order, and each track's position in it. */
export interface TrackOrder {
  order: Int32Array;
  rank: Int32Array;
}

/** The sort orders of one version of the library, each computed at its first use. */
export class TrackOrders {
  readonly #tracks: readonly TrackDto[];
  readonly #fieldRanks = new Map<Field, Int32Array>();
  readonly #orders = new Map<string, TrackOrder>();

  constructor(tracks: readonly TrackDto[]) {
    this.#tracks = tracks;
  }

  get(sort: TrackSort, direction: 1 | -1): TrackOrder {
    const name = `${sort}:${direction}`;
    const cached = this.#orders.get(name);
    if (cached) return cached;

    const tracks = this.#tracks;
    const columns = SORT_COLUMNS[sort].map((column): Array<number | string | null> => {
      if ('field' in column) {
        return Array.from(this.#fieldRank(column.field), (rank) => (rank < 0 ? null : rank));
      }
      if ('number' in column) return tracks.map(column.number);
      return tracks.map(column.text);
    });
    const order = Int32Array.from(tracks.keys());
    const compare = (i: number, j: number): number => {
      for (let c = 0; c < columns.length; c++) {
        const column = columns[c] as Array<number | string | null>;
        const result = compareNullable(
          column[i] as number | null,
          column[j] as number | null,
          c === 0 ? direction : 1,
        );
        if (result !== 0) return result;
      }
      return (tracks[i] as TrackDto).id - (tracks[j] as TrackDto).id;
    };
    order.sort(compare);
    const rank = new Int32Array(tracks.length);
    order.forEach((i, position) => {
      rank[i] = position;
    });
    const result = { order, rank };
    this.#orders.set(name, result);
    return result;
  }

  /** Each track's place among the distinct values of a text field (collated); -1 for none. */
  #fieldRank(field: Field): Int32Array {
    let ranks = this.#fieldRanks.get(field);
    if (ranks) return ranks;
    const values = [
      ...new Set(
        this.#tracks.map((t) => t[field]).filter((v): v is string => v !== null && v !== ''),
      ),
    ];
    const keys = new Map(values.map((value) => [value, sortKey(value)]));
    values.sort((a, b) => compareText(keys.get(a) as string, keys.get(b) as string));
    // Values with the same key ("ABBA", "Abba") share a rank, so the next sort column decides
    // between their tracks instead of the spelling.
    const place = new Map<string, number>();
    let rank = 0;
    values.forEach((value, i) => {
      if (i > 0 && keys.get(values[i - 1] as string) !== keys.get(value)) rank += 1;
      place.set(value, rank);
    });
    ranks = Int32Array.from(this.#tracks, (t) => {
      const value = t[field];
      return value === null || value === '' ? -1 : (place.get(value) as number);
    });
    this.#fieldRanks.set(field, ranks);
    return ranks;
  }
}
