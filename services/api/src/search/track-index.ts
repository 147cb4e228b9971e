import type { Logger } from '@radio/core';
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
  TrackSort,
} from '../dtos/tracks.dto.ts';

/*
 * The library search of GET /tracks, /artists and /albums, answered from memory.
 *
 * Why not SQL: a substring search (`lower(title) like '%x%' or …`) cannot use a b-tree index,
 * so every search scans the table: 5-18 ms for 10,000 tracks on SQLite (which blocks the event
 * loop while it runs) and 10-15 ms on PostgreSQL. Under 32 concurrent clients that queues far
 * beyond the 20 ms p99 target. An index of the two- and three-character n-grams in memory
 * finds the candidates of a search in microseconds, and sort orders are computed once per
 * library version.
 *
 * The database stays the source of truth. The index is rebuilt when the scheduler announces a
 * change (`library.changed` on the bus calls `invalidate`), and a cheap fingerprint query
 * (count, max id, max updated_at) run at most every `refreshMs` catches changes made without
 * an event, so it is never stale for long even if an event is lost.
 */

export interface TrackIndexSource {
  /** Every track row, whatever its status, in id order. */
  loadAll(): Promise<Track[]>;
  /** A value that changes whenever a track is added, changed or deleted. */
  fingerprint(): Promise<string>;
}

export interface TrackIndexOptions {
  /**
   * How often, at most, a request starts a fingerprint check in the background (ms). 0 checks
   * before every search and waits for it: exact, slower, for tests.
   */
  refreshMs: number;
  logger: Logger;
}

/** Lower case without accents: "Beyoncé" and "BEYONCE" both become "beyonce". */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** The words of a search; control characters separate words (and never match the separator). */
export function searchTokens(q: string | undefined): string[] {
  if (q === undefined) return [];
  const words = fold(q)
    .replace(/\p{Cc}/gu, ' ')
    .split(/\s+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)];
}

const STATUS_CODES = { ok: 0, invalid: 1, missing: 2 } as const;
const SEPARATOR = '\u0000';
/** Search results kept per snapshot: at most this many × the library size in 4-byte ints. */
const RESULT_CACHE_SIZE = 64;
/**
 * How text sorts: case and accents ignored, numbers by value ("Track 9" before "Track 10").
 * A precomputed key compared by code unit is what Intl.Collator does for these rules, at a
 * fraction of its cost on 10,000 titles.
 */
export function sortKey(text: string): string {
  return fold(text.trim()).replace(/[0-9]+/g, (digits) => {
    const value = digits.replace(/^0+(?=[0-9])/, '');
    // The length first: a longer number is a larger one.
    return `${String.fromCharCode(0x30 + Math.min(value.length, 40))}${value}`;
  });
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type Field = 'title' | 'artist' | 'album' | 'genre';
type SortKey =
  | { field: Field }
  | { number: (track: TrackDto) => number | null }
  | { text: (track: TrackDto) => string };

// The first key is the one asked for; the rest break ties (ascending), then the id.
const SORT_KEYS: Record<TrackSort, SortKey[]> = {
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

/** log2 of the number of n-gram buckets: 256 Ki, a few per distinct n-gram of a big library. */
const GRAM_BITS = 18;
/** Candidates few enough to check in full rather than walk one more posting list. */
const FEW_CANDIDATES = 16;

/**
 * The bucket of the two- or three-character n-gram at `at`. Different n-grams may share a
 * bucket; that only adds candidates, which are checked in full anyway, and never loses a match.
 */
function gramBucket(text: string, at: number, length: 2 | 3): number {
  const mixed =
    Math.imul(text.charCodeAt(at), 0x9e3779b1) ^
    Math.imul(text.charCodeAt(at + 1), 0x85ebca77) ^
    (length === 3 ? Math.imul(text.charCodeAt(at + 2), 0xc2b2ae3d) : 0x27d4eb2f);
  return Math.imul(mixed ^ (mixed >>> 15), 0x2c1b3c6d) >>> (32 - GRAM_BITS);
}

/** The buckets every match of a word is in: its trigrams, or its bigram if it has two letters. */
function wordBuckets(word: string): number[] {
  if (word.length === 2) return [gramBucket(word, 0, 2)];
  const buckets: number[] = [];
  for (let at = 0; at + 2 < word.length; at++) buckets.push(gramBucket(word, at, 3));
  return buckets;
}

/** The first position from `from` on in sorted `list` whose value is not below `value`. */
function lowerBound(list: Int32Array, value: number, from: number): number {
  // Galloping: the next match is usually near, and a long list is then crossed in big steps.
  let low = from;
  let step = 1;
  while (low + step < list.length && (list[low + step] as number) < value) {
    low += step;
    step *= 2;
  }
  let high = Math.min(low + step, list.length);
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The values in both sorted lists; `small` is walked, `large` is searched. */
function intersect(small: Int32Array, large: Int32Array): Int32Array {
  const both = new Int32Array(small.length);
  let n = 0;
  let at = 0;
  for (const value of small) {
    at = lowerBound(large, value, at);
    if (at === large.length) break;
    if (large[at] === value) both[n++] = value;
  }
  return both.subarray(0, n);
}

/** Posting lists of every bucket in two flat arrays: bucket b is postings[starts[b]..starts[b+1]]. */
interface GramTable {
  starts: Int32Array;
  postings: Int32Array;
}

/** -1, 0, 1 with null (unknown) after every value whatever the direction. */
function compareNullable(a: number | null, b: number | null, direction: number): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -direction : direction;
}

function paginate<T>(items: readonly T[], page: number, limit: number): Page<T> {
  const offset = (page - 1) * limit;
  return { items: items.slice(offset, offset + limit), total: items.length, page, limit };
}

interface AlbumGroup extends AlbumDto {
  artistKeys: Set<string>;
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
  #grams: GramTable | null = null;
  readonly #fieldRanks = new Map<Field, Int32Array>();
  readonly #orders = new Map<string, { order: Int32Array; rank: Int32Array }>();
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
      query.sort,
      query.order,
    ]);
    const cached = this.#cache.get(key);
    if (cached) {
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return cached;
    }
    const matches = this.#match(query);
    const { order, rank } = this.#order(query.sort, query.order === 'desc' ? -1 : 1);
    let sorted: Int32Array;
    if (matches.length * 8 > this.size) {
      // Many matches: walk the sorted order once and keep the marked ones.
      const marked = new Uint8Array(this.size);
      for (const i of matches) marked[i] = 1;
      sorted = new Int32Array(matches.length);
      let n = 0;
      for (let k = 0; k < order.length; k++) {
        const i = order[k] as number;
        if (marked[i] === 1) sorted[n++] = i;
      }
    } else {
      // Few matches: sorting their precomputed ranks is cheaper than the walk. Numbers sort
      // natively; a comparator function would be called for every comparison.
      const ranks = Int32Array.from(matches, (i) => rank[i] as number).sort();
      sorted = ranks.map((position) => order[position] as number);
    }
    this.#cache.set(key, sorted);
    if (this.#cache.size > RESULT_CACHE_SIZE) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    return sorted;
  }

  artists(query: ArtistListQuery): Page<ArtistDto> {
    this.#artists ??= this.#buildArtists();
    const tokens = searchTokens(query.q);
    const list =
      tokens.length === 0
        ? this.#artists
        : this.#artists.filter((artist) => {
            const name = fold(artist.name);
            return tokens.every((token) => name.includes(token));
          });
    return paginate(list, query.page, query.limit);
  }

  albums(query: AlbumListQuery): Page<AlbumDto> {
    this.#albums ??= this.#buildAlbums();
    const tokens = searchTokens(query.q);
    const artist = query.artist === undefined ? null : fold(query.artist.trim());
    const list = this.#albums.filter((album) => {
      if (artist !== null && !album.artistKeys.has(artist)) return false;
      if (tokens.length === 0) return true;
      const name = fold(album.name);
      return tokens.every((token) => name.includes(token));
    });
    return paginate(
      list.map(({ artistKeys: _, ...album }) => album),
      query.page,
      query.limit,
    );
  }

  #match(query: TrackListQuery): number[] {
    const tokens = searchTokens(query.q);
    const status = query.status === 'all' ? -1 : STATUS_CODES[query.status];
    const filters = (['artist', 'album', 'genre'] as const).flatMap((field) => {
      const value = query[field];
      return value === undefined ? [] : [{ keys: this.#keys[field], value: fold(value.trim()) }];
    });
    const hay = this.#hay;
    const accepts = (i: number): boolean => {
      if (status >= 0 && this.#status[i] !== status) return false;
      for (const filter of filters) if (filter.keys[i] !== filter.value) return false;
      const text = hay[i] as string;
      for (const token of tokens) if (!text.includes(token)) return false;
      return true;
    };

    const matches: number[] = [];
    const candidates = this.#candidates(tokens);
    if (candidates === null) {
      for (let i = 0; i < this.size; i++) if (accepts(i)) matches.push(i);
    } else {
      for (const i of candidates) if (accepts(i)) matches.push(i);
    }
    return matches;
  }

  /**
   * The tracks that can contain every word: the intersection of the posting lists of the
   * words' n-grams, shortest first (each candidate is then checked in full). Null when no word
   * has two characters, so every track is a candidate.
   */
  #candidates(tokens: readonly string[]): Int32Array | null {
    const buckets = new Set(
      tokens.flatMap((token) => (token.length < 2 ? [] : wordBuckets(token))),
    );
    if (buckets.size === 0) return null;
    this.#grams ??= this.#buildGrams();
    const { starts, postings } = this.#grams;
    const lists = Array.from(buckets, (bucket) =>
      postings.subarray(starts[bucket], starts[bucket + 1]),
    ).sort((a, b) => a.length - b.length);
    let candidates = lists[0] as Int32Array;
    for (let k = 1; k < lists.length && candidates.length > FEW_CANDIDATES; k++)
      candidates = intersect(candidates, lists[k] as Int32Array);
    return candidates;
  }

  /**
   * Two passes over the text of every track, typed arrays only (a Map of lists took ~20 times
   * longer): count each bucket once per track, then fill the lists in track order, so every
   * list is sorted.
   */
  #buildGrams(): GramTable {
    const buckets = 1 << GRAM_BITS;
    const counts = new Int32Array(buckets + 1);
    const lastTrack = new Int32Array(buckets).fill(-1);
    const visit = (add: (bucket: number, track: number) => void) => {
      lastTrack.fill(-1);
      this.#hay.forEach((text, i) => {
        for (let at = 0; at + 1 < text.length; at++) {
          const bigram = gramBucket(text, at, 2);
          if (lastTrack[bigram] !== i) {
            lastTrack[bigram] = i;
            add(bigram, i);
          }
          if (at + 2 === text.length) continue;
          const trigram = gramBucket(text, at, 3);
          if (lastTrack[trigram] !== i) {
            lastTrack[trigram] = i;
            add(trigram, i);
          }
        }
      });
    };
    visit((bucket) => {
      counts[bucket + 1] = (counts[bucket + 1] as number) + 1;
    });
    for (let b = 0; b < buckets; b++)
      counts[b + 1] = (counts[b + 1] as number) + (counts[b] as number);
    const starts = counts;
    const fill = starts.slice(0, buckets);
    const postings = new Int32Array(starts[buckets] as number);
    visit((bucket, track) => {
      const at = fill[bucket] as number;
      postings[at] = track;
      fill[bucket] = at + 1;
    });
    return { starts, postings };
  }

  /** Each track's place among the distinct values of a text field (collated); -1 for none. */
  #fieldRank(field: Field): Int32Array {
    let ranks = this.#fieldRanks.get(field);
    if (ranks) return ranks;
    const values = [
      ...new Set(
        this.tracks.map((t) => t[field]).filter((v): v is string => v !== null && v !== ''),
      ),
    ];
    const keys = new Map(values.map((value) => [value, sortKey(value)]));
    values.sort((a, b) => compareText(keys.get(a) as string, keys.get(b) as string));
    // Values with the same key ("ABBA", "Abba") share a rank, so the next sort key decides
    // between their tracks instead of the spelling.
    const place = new Map<string, number>();
    let rank = 0;
    values.forEach((value, i) => {
      if (i > 0 && keys.get(values[i - 1] as string) !== keys.get(value)) rank += 1;
      place.set(value, rank);
    });
    ranks = Int32Array.from(this.tracks, (t) => {
      const value = t[field];
      return value === null || value === '' ? -1 : (place.get(value) as number);
    });
    this.#fieldRanks.set(field, ranks);
    return ranks;
  }

  #order(sort: TrackSort, direction: 1 | -1): { order: Int32Array; rank: Int32Array } {
    const name = `${sort}:${direction}`;
    const cached = this.#orders.get(name);
    if (cached) return cached;

    const columns = SORT_KEYS[sort].map((key): Array<number | string | null> => {
      if ('field' in key) {
        return Array.from(this.#fieldRank(key.field), (rank) => (rank < 0 ? null : rank));
      }
      if ('number' in key) return this.tracks.map(key.number);
      return this.tracks.map(key.text);
    });
    const order = Int32Array.from(this.tracks.keys());
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
      return (this.tracks[i] as TrackDto).id - (this.tracks[j] as TrackDto).id;
    };
    order.sort(compare);
    const rank = new Int32Array(this.size);
    order.forEach((i, position) => {
      rank[i] = position;
    });
    const result = { order, rank };
    this.#orders.set(name, result);
    return result;
  }

  #buildArtists(): ArtistDto[] {
    const groups = new Map<string, { name: string; tracks: number; albums: Set<string> }>();
    this.tracks.forEach((track, i) => {
      const key = this.#keys.artist[i] as string;
      if (this.#status[i] !== STATUS_CODES.ok || key === '' || track.artist === null) return;
      let group = groups.get(key);
      if (!group) {
        group = { name: track.artist.trim(), tracks: 0, albums: new Set() };
        groups.set(key, group);
      }
      group.tracks += 1;
      const album = this.#keys.album[i] as string;
      if (album !== '') group.albums.add(album);
    });
    return [...groups.values()]
      .map((group) => ({ name: group.name, tracks: group.tracks, albums: group.albums.size }))
      .sort((a, b) => compareText(sortKey(a.name), sortKey(b.name)));
  }

  #buildAlbums(): AlbumGroup[] {
    const groups = new Map<string, AlbumGroup & { artistNames: Map<string, string> }>();
    this.tracks.forEach((track, i) => {
      const key = this.#keys.album[i] as string;
      if (this.#status[i] !== STATUS_CODES.ok || key === '' || track.album === null) return;
      let group = groups.get(key);
      if (!group) {
        group = {
          name: track.album.trim(),
          artist: null,
          tracks: 0,
          year: null,
          duration: 0,
          artistKeys: new Set(),
          artistNames: new Map(),
        };
        groups.set(key, group);
      }
      group.tracks += 1;
      group.duration += track.duration ?? 0;
      if (track.year !== null && (group.year === null || track.year < group.year))
        group.year = track.year;
      const artistKey = this.#keys.artist[i] as string;
      if (artistKey !== '' && track.artist !== null) {
        group.artistKeys.add(artistKey);
        if (!group.artistNames.has(artistKey))
          group.artistNames.set(artistKey, track.artist.trim());
      }
    });
    return [...groups.values()]
      .map(({ artistNames, ...group }) => ({
        ...group,
        artist: artistNames.size === 1 ? ([...artistNames.values()][0] as string) : null,
        duration: Math.round(group.duration * 1000) / 1000,
      }))
      .sort((a, b) => compareText(sortKey(a.name), sortKey(b.name)));
  }
}

/** Keeps the current snapshot and decides when to rebuild it (see the comment at the top). */
export class TrackIndex {
  readonly #source: TrackIndexSource;
  readonly #refreshMs: number;
  readonly #log: Logger;
  #snapshot: TrackSnapshot | null = null;
  #fingerprint: string | null = null;
  #dirty = true;
  /** Bumped by every invalidation, so a build that started before one does not clear it. */
  #version = 0;
  #building: Promise<TrackSnapshot> | null = null;
  #checking: Promise<void> | null = null;
  #checkedAt = 0;

  constructor(source: TrackIndexSource, options: TrackIndexOptions) {
    if (!(options.refreshMs >= 0)) throw new RangeError('refreshMs must be 0 or more');
    this.#source = source;
    this.#refreshMs = options.refreshMs;
    this.#log = options.logger;
  }

  /** The library changed: the next search rebuilds the index first. */
  invalidate(): void {
    this.#dirty = true;
    this.#version += 1;
  }

  async snapshot(): Promise<TrackSnapshot> {
    if (this.#snapshot !== null && !this.#dirty) {
      if (this.#refreshMs === 0) await this.#check();
      else if (Date.now() - this.#checkedAt >= this.#refreshMs) {
        this.#check().catch((error: unknown) =>
          this.#log.warn({ err: error }, 'track index check failed'),
        );
      }
    }
    if (this.#snapshot === null || this.#dirty) return this.#build();
    return this.#snapshot;
  }

  #check(): Promise<void> {
    this.#checkedAt = Date.now();
    this.#checking ??= (async () => {
      try {
        const fingerprint = await this.#source.fingerprint();
        if (fingerprint !== this.#fingerprint) this.invalidate();
      } finally {
        this.#checking = null;
      }
    })();
    return this.#checking;
  }

  #build(): Promise<TrackSnapshot> {
    this.#building ??= (async () => {
      try {
        const version = this.#version;
        const started = performance.now();
        // The fingerprint first: a change made while the rows load shows up at the next check.
        const fingerprint = await this.#source.fingerprint();
        const rows = await this.#source.loadAll();
        const snapshot = new TrackSnapshot(rows);
        this.#snapshot = snapshot;
        this.#fingerprint = fingerprint;
        this.#checkedAt = Date.now();
        if (version === this.#version) this.#dirty = false;
        this.#log.debug(
          { tracks: snapshot.size, ms: Math.round(performance.now() - started) },
          'track index built',
        );
        return snapshot;
      } finally {
        this.#building = null;
      }
    })();
    return this.#building;
  }
}
