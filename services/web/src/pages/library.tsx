import { useEffect, useId, useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import {
  type SortOrder,
  TRACK_SORTS,
  type Track,
  type TrackQuery,
  type TrackSort,
  type TrackStatus,
} from '../api/types.ts';
import { AddToPlaylistDialog } from '../components/add-to-playlist.tsx';
import { CoverArt } from '../components/cover-art.tsx';
import { PlusIcon, QueueIcon, SearchIcon } from '../components/icons.tsx';
import { Pagination } from '../components/pagination.tsx';
import { Empty, ErrorMessage, Loading } from '../components/status.tsx';
import { TrackDetailsDialog } from '../components/track-details.tsx';
import { formatDuration, plural } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useDebounced } from '../hooks/use-debounced.ts';
import { useLive } from '../hooks/use-live.ts';
import { useSession } from '../hooks/use-session.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { setSearchParams, useLocation } from '../router.ts';
import { hasRole } from '../session.ts';

const COLUMNS: { sort: TrackSort; label: string; className?: string }[] = [
  { sort: 'title', label: 'Title' },
  { sort: 'artist', label: 'Artist' },
  { sort: 'album', label: 'Album', className: 'hide-narrow' },
  { sort: 'genre', label: 'Genre', className: 'hide-medium' },
  { sort: 'year', label: 'Year', className: 'hide-medium num' },
  { sort: 'duration', label: 'Time', className: 'num' },
];
const SORTS = new Set<string>(TRACK_SORTS);
const PAGE_SIZES = [25, 50, 100];

interface Filters {
  q: string;
  artist: string;
  album: string;
  genre: string;
  status: TrackStatus | 'all';
  sort: TrackSort;
  order: SortOrder;
  page: number;
  limit: number;
}

/** The filters as the URL holds them, so a search can be bookmarked and survives a reload. */
function readFilters(search: string): Filters {
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
    status: status === 'invalid' || status === 'missing' || status === 'all' ? status : 'ok',
    sort: (SORTS.has(sort) ? sort : 'artist') as TrackSort,
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    page: Number.isInteger(page) && page > 0 ? page : 1,
    limit: PAGE_SIZES.includes(limit) ? limit : 50,
  };
}

function SortHeader({ column, filters }: { column: (typeof COLUMNS)[number]; filters: Filters }) {
  const active = filters.sort === column.sort;
  const next: SortOrder = active && filters.order === 'asc' ? 'desc' : 'asc';
  return (
    <th
      scope="col"
      className={column.className}
      aria-sort={active ? (filters.order === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button
        type="button"
        className="sort-button"
        onClick={() => setSearchParams({ sort: column.sort, order: next, page: null })}
        aria-label={`Sort by ${column.label.toLowerCase()}${active ? `, now ${filters.order === 'asc' ? 'ascending' : 'descending'}` : ''}`}
      >
        {column.label}
        <span className="sort-mark" aria-hidden="true">
          {active ? (filters.order === 'asc' ? '▲' : '▼') : ''}
        </span>
      </button>
    </th>
  );
}

export default function LibraryPage() {
  useTitle('Library');
  const { user } = useSession();
  const { search } = useLocation();
  const filters = readFilters(search);
  const canQueue = hasRole(user, 'dj');
  const isAdmin = hasRole(user, 'admin');
  const libraryVersion = useLive((s) => s.libraryVersion);
  const [text, setText] = useState(filters.q);
  const query = useDebounced(text.trim(), 250);
  const [adding, setAdding] = useState<Track | null>(null);
  const [details, setDetails] = useState<Track | null>(null);
  const ids = {
    search: useId(),
    artist: useId(),
    album: useId(),
    genre: useId(),
    status: useId(),
    size: useId(),
  };

  // Typing changes the URL once the text settles; page 1 for a new search.
  const urlQuery = filters.q;
  // Only a change of the typed text moves the URL; Back and Forward move it the other way.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (query !== urlQuery) setSearchParams({ q: query, page: null });
  }, [query]);

  const trackQuery: TrackQuery = {
    q: filters.q || undefined,
    artist: filters.artist || undefined,
    album: filters.album || undefined,
    genre: filters.genre || undefined,
    status: filters.status,
    sort: filters.sort,
    order: filters.order,
    page: filters.page,
    limit: filters.limit,
  };
  const tracks = useAsync((signal) => api.tracks(trackQuery, signal), [search, libraryVersion]);
  const artists = useAsync((signal) => api.artists({ limit: 500 }, signal), [libraryVersion]);
  const albums = useAsync(
    (signal) => api.albums({ artist: filters.artist || undefined, limit: 500 }, signal),
    [filters.artist, libraryVersion],
  );

  const queue = async (track: Track) => {
    try {
      await api.enqueue({ trackId: track.id });
      toast(`Queued "${track.title}".`);
    } catch (error) {
      toast(describeError(error), 'error');
    }
  };

  const page = tracks.data;
  const filtered =
    filters.artist || filters.album || filters.genre || filters.q || filters.status !== 'ok';

  return (
    <section className="page" aria-labelledby="library-heading">
      <div className="page-head">
        <h1 id="library-heading">Library</h1>
        <p className="muted" aria-live="polite">
          {page ? plural(page.total, 'track') : ' '}
        </p>
      </div>

      <search className="filters card">
        <div className="search-box">
          <SearchIcon />
          <label htmlFor={ids.search} className="visually-hidden">
            Search the library
          </label>
          <input
            id={ids.search}
            type="search"
            placeholder="Search title, artist or album"
            value={text}
            onChange={(event) => setText(event.target.value)}
            maxLength={500}
            autoComplete="off"
          />
        </div>
        <div className="filter-row">
          <div className="field compact">
            <label htmlFor={ids.artist}>Artist</label>
            <select
              id={ids.artist}
              value={filters.artist}
              onChange={(event) =>
                setSearchParams({ artist: event.target.value, album: null, page: null })
              }
            >
              <option value="">All artists</option>
              {artists.data?.items.map((artist) => (
                <option key={artist.name} value={artist.name}>
                  {artist.name} ({artist.tracks})
                </option>
              ))}
            </select>
          </div>
          <div className="field compact">
            <label htmlFor={ids.album}>Album</label>
            <select
              id={ids.album}
              value={filters.album}
              onChange={(event) => setSearchParams({ album: event.target.value, page: null })}
            >
              <option value="">All albums</option>
              {albums.data?.items.map((album) => (
                <option key={`${album.name}-${album.artist ?? ''}`} value={album.name}>
                  {album.name} ({album.tracks})
                </option>
              ))}
            </select>
          </div>
          <div className="field compact">
            <label htmlFor={ids.genre}>Genre</label>
            <input
              id={ids.genre}
              defaultValue={filters.genre}
              placeholder="Any"
              maxLength={500}
              onBlur={(event) => setSearchParams({ genre: event.target.value.trim(), page: null })}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  setSearchParams({ genre: event.currentTarget.value.trim(), page: null });
                }
              }}
            />
          </div>
          {isAdmin ? (
            <div className="field compact">
              <label htmlFor={ids.status}>Status</label>
              <select
                id={ids.status}
                value={filters.status}
                onChange={(event) =>
                  setSearchParams({
                    status: event.target.value === 'ok' ? null : event.target.value,
                    page: null,
                  })
                }
              >
                <option value="ok">Playable</option>
                <option value="invalid">Invalid</option>
                <option value="missing">Missing</option>
                <option value="all">All</option>
              </select>
            </div>
          ) : null}
          <div className="field compact">
            <label htmlFor={ids.size}>Per page</label>
            <select
              id={ids.size}
              value={filters.limit}
              onChange={(event) => setSearchParams({ limit: event.target.value, page: null })}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </div>
          {filtered ? (
            <button
              type="button"
              className="button small ghost"
              onClick={() => {
                setText('');
                setSearchParams({
                  q: null,
                  artist: null,
                  album: null,
                  genre: null,
                  status: null,
                  page: null,
                });
              }}
            >
              Clear filters
            </button>
          ) : null}
        </div>
      </search>

      {tracks.error ? <ErrorMessage error={tracks.error} onRetry={tracks.reload} /> : null}
      {tracks.loading && !page ? <Loading label="Loading tracks…" /> : null}
      {page && page.items.length === 0 ? (
        <Empty>
          {filtered
            ? 'No track matches these filters.'
            : 'The library is empty. Add music to the music folder.'}
        </Empty>
      ) : null}
      {page && page.items.length > 0 ? (
        <div className={`table-wrap ${tracks.loading ? 'stale' : ''}`} aria-busy={tracks.loading}>
          <table className="table tracks-table" aria-label="Tracks">
            <thead>
              <tr>
                <th scope="col" className="cover-col">
                  <span className="visually-hidden">Cover</span>
                </th>
                {COLUMNS.map((column) => (
                  <SortHeader key={column.sort} column={column} filters={filters} />
                ))}
                <th scope="col" className="actions-col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((track) => (
                <tr key={track.id} data-testid="track-row">
                  <td className="cover-col">
                    <CoverArt
                      trackId={track.id}
                      hasCover={track.hasCover}
                      seed={`${track.artist ?? ''}${track.album ?? track.title}`}
                    />
                  </td>
                  <td className="title-cell">
                    <button
                      type="button"
                      className="cell-title title-button"
                      title="Details: file, loudness, cue points"
                      onClick={() => setDetails(track)}
                    >
                      {track.title}
                    </button>
                    {track.status !== 'ok' ? (
                      <span
                        className={`badge badge-${track.status}`}
                        title={track.error ?? undefined}
                      >
                        {track.status}
                      </span>
                    ) : null}
                    {track.error ? <span className="cell-error">{track.error}</span> : null}
                  </td>
                  <td>{track.artist ?? <span className="muted">Unknown</span>}</td>
                  <td className="hide-narrow">{track.album ?? ''}</td>
                  <td className="hide-medium">{track.genre ?? ''}</td>
                  <td className="hide-medium num">{track.year ?? ''}</td>
                  <td className="num">{formatDuration(track.duration)}</td>
                  <td className="actions-col">
                    <div className="row-actions">
                      <button
                        type="button"
                        className="icon-button"
                        aria-label={`Add ${track.title} to a playlist`}
                        title="Add to a playlist"
                        onClick={() => setAdding(track)}
                        disabled={track.status !== 'ok'}
                      >
                        <PlusIcon />
                      </button>
                      {canQueue ? (
                        <button
                          type="button"
                          className="icon-button"
                          aria-label={`Queue ${track.title}`}
                          title="Queue on air"
                          onClick={() => queue(track)}
                          disabled={track.status !== 'ok'}
                        >
                          <QueueIcon />
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pagination
        of={page}
        label="Library pages"
        onPage={(next) => setSearchParams({ page: next })}
      />
      <AddToPlaylistDialog track={adding} onClose={() => setAdding(null)} />
      <TrackDetailsDialog track={details} onClose={() => setDetails(null)} />
    </section>
  );
}
