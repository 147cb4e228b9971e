import type { Track } from '@radio/db';
import type { Page } from '../dtos/common.dto.ts';
import { toTrackDto } from '../dtos/mappers.ts';
import type {
  AlbumDto,
  AlbumListQuery,
  ArtistDto,
  ArtistListQuery,
  TrackDto,
  TrackListQuery,
} from '../dtos/tracks.dto.ts';
import { GramIndex } from './gram-index.ts';
import { type AlbumGroup, groupAlbums, groupArtists } from './library-groups.ts';
import { fold, searchTokens } from './text.ts';
import { type TrackOrder, TrackOrders } from './track-orders.ts';

const STATUS_CODES = { ok: 0, invalid: 1, missing: 2 } as const;
const SEPARATOR = '\u0000';
/** Search results kept per snapshot: at most this many × the library size in 4-byte ints. */
const RESULT_CACHE_SIZE = 64;

function paginate<T>(items: readonly T[], page: number, limit: number): Page<T> {
  const offset = (page - 1) * limit;
  return { items: items.slice(offset, offset + limit), total: items.length, page, limit };
}

/** Whether every word is in `name` (folded); true when there are none. */
function hasWords(name: string, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const folded = fold(name);
  return words.every((word) => folded.includes(word));
}

/** The matching track indexes (in track order) in the given sort order. */
function inOrder(matches: readonly number[], { order, rank }: TrackOrder): Int32Array {
  if (matches.length * 8 > order.length) {
    // Many matches: walk the sorted order once and keep the marked ones.
    const marked = new Uint8Array(order.length);
    for (const i of matches) marked[i] = 1;
    const sorted = new Int32Array(matches.length);
    let n = 0;
    for (let k = 0; k < order.length; k++) {
      const i = order[k] as number;
      if (marked[i] === 1) sorted[n++] = i;
    }
    return sorted;
  }
  // Few matches: sorting their precomputed ranks is cheaper than the walk. Numbers sort
  // natively; a comparator function would be called for every comparison.
  const ranks = Int32Array.from(matches, (i) => rank[i] as number).sort();
  return ranks.map((position) => order[position] as number);
}

/** One version of the library, immutable once built; searches never wait for a rebuild. */
export class TrackSnapshot {
  readonly tracks: readonly TrackDto[];
  readonly #hay: string[] = [];
  readonly #keys: Record<'artist' | 'album' | 'genre', string[]> = {
    artist: [],
    album: [],
    genre: [],
  };
  readonly #status: Uint8Array;
  readonly #grams: GramIndex;
  readonly #orders: TrackOrders;
  #artists: ArtistDto[] | null = null;
  #albums: AlbumGroup[] | null = null;
  readonly #json: Array<string | undefined> = [];
  readonly #cache = new Map<string, Int32Array>();

  constructor(rows: readonly Track[]) {
    this.tracks = rows.map(toTrackDto);
    this.#status = new Uint8Array(rows.length);
    this.tracks.forEach((track, i) => {
      this.#hay.push(
        [fold(track.title), fold(track.artist ?? ''), fold(track.album ?? '')].join(SEPARATOR),
      );
      this.#keys.artist.push(fold(track.artist?.trim() ?? ''));
      this.#keys.album.push(fold(track.album?.trim() ?? ''));
      this.#keys.genre.push(fold(track.genre?.trim() ?? ''));
      this.#status[i] = STATUS_CODES[track.status];
    });
    this.#grams = new GramIndex(this.#hay);
    this.#orders = new TrackOrders(this.tracks);
  }

  get size(): number {
    return this.tracks.length;
  }

  search(query: TrackListQuery): Page<TrackDto> {
    const { page, limit } = query;
    const sorted = this.#results(query);
    const offset = (page - 1) * limit;
    const items = Array.from(
      sorted.subarray(offset, offset + limit),
      (i) => this.tracks[i] as TrackDto,
    );
    return { items, total: sorted.length, page, limit };
  }

  /**
   * The same page as `search`, already serialized: each track's JSON is made once per
   * snapshot, so a page costs a string join instead of a walk over 50 objects.
   */
  searchJson(query: TrackListQuery): string {
    const { page, limit } = query;
    const sorted = this.#results(query);
    const offset = (page - 1) * limit;
    const items = Array.from(sorted.subarray(offset, offset + limit), (i) => this.#trackJson(i));
    return `{"items":[${items.join(',')}],"total":${sorted.length},"page":${page},"limit":${limit}}`;
  }

  artists(query: ArtistListQuery): Page<ArtistDto> {
    this.#artists ??= groupArtists(this.tracks, this.#keys);
    const words = searchTokens(query.q);
    const list = this.#artists.filter((artist) => hasWords(artist.name, words));
    return paginate(list, query.page, query.limit);
  }

  albums(query: AlbumListQuery): Page<AlbumDto> {
    this.#albums ??= groupAlbums(this.tracks, this.#keys);
    const words = searchTokens(query.q);
    const artist = query.artist === undefined ? null : fold(query.artist.trim());
    const list = this.#albums.filter(
      (album) => (artist === null || album.artistKeys.has(artist)) && hasWords(album.name, words),
    );
    return paginate(
      list.map(({ artistKeys: _, ...album }) => album),
      query.page,
      query.limit,
    );
  }

  #trackJson(i: number): string {
    let json = this.#json[i];
    if (json === undefined) {
      json = JSON.stringify(this.tracks[i]);
      this.#json[i] = json;
    }
    return json;
  }

  /**
   * Every match of a query in its sort order. The snapshot never changes, so results are
   * kept (a few, least recently used first out): the next page of a search, or the same
   * search by another listener, costs a lookup.
   */
  #results(query: TrackListQuery): Int32Array {
    const key = JSON.stringify([
      searchTokens(query.q),
      query.artist === undefined ? null : fold(query.artist.trim()),
      query.album === undefined ? null : fold(query.album.trim()),
      query.genre === undefined ? null : fold(query.genre.trim()),
      query.status,
      query.folder ?? null,
      query.sort,
      query.order,
    ]);
    const cached = this.#cache.get(key);
    if (cached) {
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return cached;
    }
    const order = this.#orders.get(query.sort, query.order === 'desc' ? -1 : 1);
    const sorted = inOrder(this.#match(query), order);
    this.#cache.set(key, sorted);
    if (this.#cache.size > RESULT_CACHE_SIZE) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    return sorted;
  }

  #match(query: TrackListQuery): number[] {
    const tokens = searchTokens(query.q);
    const status = query.status === 'all' ? -1 : STATUS_CODES[query.status];
    const filters = (['artist', 'album', 'genre'] as const).flatMap((field) => {
      const value = query[field];
      return value === undefined ? [] : [{ keys: this.#keys[field], value: fold(value.trim()) }];
    });
    const hay = this.#hay;
    const folder = query.folder === undefined ? null : `${query.folder.replace(/^\/+|\/+$/g, '')}/`;
    const accepts = (i: number): boolean => {
      if (status >= 0 && this.#status[i] !== status) return false;
      if (folder !== null && folder !== '/' && !this.tracks[i]?.path.startsWith(folder))
        return false;
      for (const filter of filters) if (filter.keys[i] !== filter.value) return false;
      const text = hay[i] as string;
      for (const token of tokens) if (!text.includes(token)) return false;
      return true;
    };

    const matches: number[] = [];
    const candidates = this.#grams.candidates(tokens);
    if (candidates === null) {
      for (let i = 0; i < this.size; i++) if (accepts(i)) matches.push(i);
    } else {
      for (const i of candidates) if (accepts(i)) matches.push(i);
    }
    return matches;
  }
}
