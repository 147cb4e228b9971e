import { useEffect, useId, useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { SortOrder, Track, TrackQuery, TrackSort } from '../api/types.ts';
import { AddToPlaylistDialog } from '../components/add-to-playlist.tsx';
import { CoverArt } from '../components/cover-art.tsx';
import { DeleteTracksDialog } from '../components/delete-tracks-dialog.tsx';
import { EditTagsDialog } from '../components/edit-tags-dialog.tsx';
import { FolderFilter } from '../components/folder-filter.tsx';
import { PlusIcon, QueueIcon, SearchIcon } from '../components/icons.tsx';
import { LibrarySelectionBar } from '../components/library-selection.tsx';
import { MoveTracksDialog } from '../components/move-tracks-dialog.tsx';
import { Pagination } from '../components/pagination.tsx';
import { RequestButton } from '../components/request-button.tsx';
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
import { type Filters, PAGE_SIZES, readFilters } from './library-filters.ts';

const COLUMNS: { sort: TrackSort; label: string; className?: string }[] = [
  { sort: 'title', label: 'Title' },
  { sort: 'artist', label: 'Artist' },
  { sort: 'album', label: 'Album', className: 'hide-narrow' },
  { sort: 'genre', label: 'Genre', className: 'hide-medium' },
  { sort: 'year', label: 'Year', className: 'hide-medium num' },
  { sort: 'duration', label: 'Time', className: 'num' },
];
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
  const [selected, setSelected] = useState<ReadonlyMap<number, Track>>(new Map());
  const [editing, setEditing] = useState<Track[]>([]);
  const [moving, setMoving] = useState<Track[]>([]);
  const [deleting, setDeleting] = useState<Track[]>([]);
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
    folder: filters.folder || undefined,
    status: filters.status,
    sort: filters.sort,
    order: filters.order,
    page: filters.page,
    limit: filters.limit,
  };
  const tracks = useAsync((signal) => api.tracks(trackQuery, signal), [search, libraryVersion]);
  const artists = useAsync((signal) => api.artists({ limit: 500 }, signal), [libraryVersion]);
  const requestSettings = useAsync((signal) => api.requestSettings(signal), []);
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
    filters.artist ||
    filters.album ||
    filters.genre ||
    filters.folder ||
    filters.q ||
    filters.status !== 'ok';
  const toggle = (track: Track) => {
    const next = new Map(selected);
    if (next.has(track.id)) next.delete(track.id);
    else next.set(track.id, track);
    setSelected(next);
  };
  const changed = () => {
    setSelected(new Map());
    tracks.reload();
  };
  const allOnPage = page?.items.every((track) => selected.has(track.id)) === true;

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
          <FolderFilter
            value={filters.folder}
            version={libraryVersion}
            onChange={(folder) => setSearchParams({ folder: folder || null, page: null })}
          />
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
                  folder: null,
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

      <LibrarySelectionBar
        count={selected.size}
        onEditTags={() => setEditing([...selected.values()])}
        onMove={() => setMoving([...selected.values()])}
        onDelete={() => setDeleting([...selected.values()])}
        onClear={() => setSelected(new Map())}
      />
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
                <th scope="col" className={canQueue ? 'cover-col selectable' : 'cover-col'}>
                  {/* The tick sits in the cover's column: the other columns keep their places. */}
                  {canQueue ? (
                    <input
                      type="checkbox"
                      aria-label="Select every track on this page"
                      checked={allOnPage}
                      onChange={() =>
                        setSelected(
                          new Map(allOnPage ? [] : page.items.map((track) => [track.id, track])),
                        )
                      }
                    />
                  ) : null}
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
                  <td className={canQueue ? 'cover-col selectable' : 'cover-col'}>
                    {canQueue ? (
                      <input
                        type="checkbox"
                        aria-label={`Select ${track.title}`}
                        checked={selected.has(track.id)}
                        onChange={() => toggle(track)}
                      />
                    ) : null}
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
                      <RequestButton track={track} settings={requestSettings.data} />
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
      <EditTagsDialog tracks={editing} onClose={() => setEditing([])} onSaved={changed} />
      <MoveTracksDialog tracks={moving} onClose={() => setMoving([])} onMoved={changed} />
      <DeleteTracksDialog tracks={deleting} onClose={() => setDeleting([])} onDeleted={changed} />
    </section>
  );
}
