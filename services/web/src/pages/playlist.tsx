import {
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { PlaylistDetail, PlaylistItem } from '../api/types.ts';
import { CoverArt } from '../components/cover-art.tsx';
import { ConfirmDialog } from '../components/dialog.tsx';
import {
  DownIcon,
  GripIcon,
  PlayIcon,
  PlusIcon,
  SearchIcon,
  TrashIcon,
  UpIcon,
} from '../components/icons.tsx';
import { Link } from '../components/link.tsx';
import { PlaylistFields } from '../components/playlist-fields.tsx';
import { Empty, ErrorMessage, Loading } from '../components/status.tsx';
import { formatDuration, formatLongDuration, plural } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useDebounced } from '../hooks/use-debounced.ts';
import { useSession } from '../hooks/use-session.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { moveItem, sameOrder } from '../reorder.ts';
import { navigate } from '../router.ts';
import { hasRole } from '../session.ts';

function Details({
  playlist,
  canEdit,
  onChange,
}: {
  playlist: PlaylistDetail;
  canEdit: boolean;
  onChange: (next: PlaylistDetail) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(playlist.name);
  const [description, setDescription] = useState(playlist.description ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isPublicId = useId();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('The name must not be empty.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onChange(
        await api.updatePlaylist(playlist.id, {
          name: name.trim(),
          description: description.trim() || null,
        }),
      );
      setEditing(false);
      toast('Saved.');
    } catch (reason) {
      setError(describeError(reason));
    } finally {
      setBusy(false);
    }
  };

  const togglePublic = async (isPublic: boolean) => {
    try {
      onChange(await api.updatePlaylist(playlist.id, { isPublic }));
      toast(isPublic ? 'The playlist is public now.' : 'The playlist is private now.');
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  if (editing) {
    return (
      <form className="playlist-edit" onSubmit={save} aria-label="Edit the playlist">
        <PlaylistFields
          name={name}
          description={description}
          onName={setName}
          onDescription={setDescription}
          descriptionRows={3}
        />
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="button-row">
          <button type="submit" className="button primary" disabled={busy}>
            Save
          </button>
          <button
            type="button"
            className="button ghost"
            onClick={() => {
              setEditing(false);
              setName(playlist.name);
              setDescription(playlist.description ?? '');
              setError(null);
            }}
          >
            Cancel
          </button>
        </div>
      </form>
    );
  }

  return (
    <div className="playlist-details">
      <p className="eyebrow">
        Playlist by {playlist.owner.username} · {plural(playlist.itemCount, 'track')} ·{' '}
        {formatLongDuration(playlist.duration)}
      </p>
      <h1 id="playlist-heading">{playlist.name}</h1>
      {playlist.description ? <p className="description">{playlist.description}</p> : null}
      {canEdit ? (
        <div className="button-row">
          <button type="button" className="button small" onClick={() => setEditing(true)}>
            Rename or describe
          </button>
          <label className="switch" htmlFor={isPublicId}>
            <input
              id={isPublicId}
              type="checkbox"
              role="switch"
              checked={playlist.isPublic}
              aria-checked={playlist.isPublic}
              onChange={(e) => togglePublic(e.target.checked)}
            />
            <span>Public</span>
          </label>
        </div>
      ) : (
        <p>{playlist.isPublic ? <span className="badge">public</span> : null}</p>
      )}
    </div>
  );
}

function AddTracks({
  playlist,
  onChange,
}: {
  playlist: PlaylistDetail;
  onChange: (next: PlaylistDetail) => void;
}) {
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), 250);
  const searchId = useId();
  const results = useAsync(
    (signal) => (q ? api.tracks({ q, limit: 8, sort: 'title' }, signal) : Promise.resolve(null)),
    [q],
  );
  const inPlaylist = new Set(playlist.items.map((item) => item.track.id));

  const add = async (trackId: number, title: string) => {
    try {
      onChange(await api.addToPlaylist(playlist.id, [trackId]));
      toast(`Added "${title}".`);
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  return (
    <section className="card add-tracks" aria-labelledby="add-heading">
      <h2 id="add-heading">Add tracks</h2>
      <div className="search-box">
        <SearchIcon />
        <label htmlFor={searchId} className="visually-hidden">
          Search tracks to add
        </label>
        <input
          id={searchId}
          type="search"
          placeholder="Search tracks to add"
          value={text}
          maxLength={500}
          autoComplete="off"
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {results.loading && q ? <Loading inline label="Searching…" /> : null}
      {results.error ? <ErrorMessage error={results.error} onRetry={results.reload} /> : null}
      {results.data && results.data.items.length === 0 ? (
        <p className="muted">No track matches.</p>
      ) : null}
      {results.data && results.data.items.length > 0 ? (
        <ul className="result-list">
          {results.data.items.map((track) => (
            <li key={track.id}>
              <span className="result-text">
                <span className="cell-title">{track.title}</span>
                <span className="muted small">{track.artist ?? 'Unknown artist'}</span>
              </span>
              <button
                type="button"
                className="button small"
                onClick={() => add(track.id, track.title)}
                aria-label={`Add ${track.title}`}
              >
                <PlusIcon size={16} /> {inPlaylist.has(track.id) ? 'Again' : 'Add'}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * The items, in order. Three ways to reorder: drag a row; the up and down buttons; or focus
 * a row's handle, press Space to pick it up, arrows to move it and Space again to drop it.
 */
function Items({
  playlist,
  canEdit,
  onChange,
}: {
  playlist: PlaylistDetail;
  canEdit: boolean;
  onChange: (next: PlaylistDetail) => void;
}) {
  const [items, setItems] = useState<PlaylistItem[]>(playlist.items);
  const [dragging, setDragging] = useState<number | null>(null);
  const [grabbed, setGrabbed] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const before = useRef<PlaylistItem[]>(playlist.items);
  const handles = useRef(new Map<number, HTMLButtonElement>());

  useEffect(() => {
    setItems(playlist.items);
    before.current = playlist.items;
  }, [playlist.items]);

  const persist = async (next: PlaylistItem[]) => {
    if (sameOrder(next, before.current)) return;
    const previous = before.current;
    before.current = next;
    try {
      onChange(
        await api.reorderPlaylist(
          playlist.id,
          next.map((item) => item.id),
        ),
      );
    } catch (reason) {
      before.current = previous;
      setItems(previous);
      toast(describeError(reason), 'error');
    }
  };

  const focusHandle = (itemId: number) => {
    requestAnimationFrame(() => handles.current.get(itemId)?.focus());
  };

  const moveBy = (index: number, delta: number, save: boolean) => {
    const target = index + delta;
    if (target < 0 || target >= items.length) return;
    const item = items[index] as PlaylistItem;
    const next = moveItem(items, index, target);
    setItems(next);
    setAnnouncement(`${item.track.title} moved to position ${target + 1} of ${next.length}.`);
    focusHandle(item.id);
    if (save) void persist(next);
  };

  const remove = async (item: PlaylistItem) => {
    try {
      await api.removeFromPlaylist(playlist.id, item.id);
      onChange(await api.playlist(playlist.id));
      toast(`Removed "${item.track.title}".`);
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  const onHandleKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const item = items[index] as PlaylistItem;
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      if (grabbed === item.id) {
        setGrabbed(null);
        setAnnouncement(`${item.track.title} dropped at position ${index + 1}.`);
        void persist(items);
      } else {
        setGrabbed(item.id);
        setAnnouncement(
          `${item.track.title} picked up. Use the arrow keys to move it, Space to drop it, Escape to cancel.`,
        );
      }
    } else if (event.key === 'Escape' && grabbed !== null) {
      event.preventDefault();
      setGrabbed(null);
      setItems(before.current);
      setAnnouncement('Move cancelled.');
      focusHandle(item.id);
    } else if (
      (event.key === 'ArrowUp' || event.key === 'ArrowDown') &&
      (grabbed === item.id || event.altKey)
    ) {
      event.preventDefault();
      moveBy(index, event.key === 'ArrowUp' ? -1 : 1, grabbed !== item.id);
    }
  };

  const onDragStart = (event: DragEvent<HTMLLIElement>, item: PlaylistItem) => {
    setDragging(item.id);
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', String(item.id));
  };

  const onDragOver = (event: DragEvent<HTMLLIElement>, index: number) => {
    if (dragging === null) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const from = items.findIndex((item) => item.id === dragging);
    if (from !== -1 && from !== index) setItems(moveItem(items, from, index));
  };

  const onDragEnd = () => {
    if (dragging === null) return;
    setDragging(null);
    void persist(items);
  };

  if (items.length === 0) {
    return (
      <Empty>This playlist is empty.{canEdit ? ' Search for tracks to add below.' : ''}</Empty>
    );
  }

  return (
    <>
      <p className="visually-hidden" aria-live="assertive">
        {announcement}
      </p>
      <ol className="playlist-items" aria-label="Tracks in this playlist">
        {items.map((item, index) => (
          <li
            key={item.id}
            className={`playlist-item ${dragging === item.id ? 'dragging' : ''} ${grabbed === item.id ? 'grabbed' : ''}`}
            draggable={canEdit}
            onDragStart={(event) => onDragStart(event, item)}
            onDragOver={(event) => onDragOver(event, index)}
            onDrop={(event) => {
              event.preventDefault();
              onDragEnd();
            }}
            onDragEnd={onDragEnd}
            data-testid="playlist-item"
          >
            {canEdit ? (
              <button
                type="button"
                className="icon-button grip"
                aria-label={`Reorder ${item.track.title}, position ${index + 1} of ${items.length}`}
                aria-pressed={grabbed === item.id}
                aria-describedby="reorder-help"
                ref={(element) => {
                  if (element) handles.current.set(item.id, element);
                  else handles.current.delete(item.id);
                }}
                onKeyDown={(event) => onHandleKey(event, index)}
                onBlur={() => {
                  if (grabbed === item.id) {
                    setGrabbed(null);
                    void persist(items);
                  }
                }}
              >
                <GripIcon />
              </button>
            ) : null}
            <span className="item-pos">{index + 1}</span>
            <CoverArt
              trackId={item.track.id}
              hasCover={item.track.hasCover}
              seed={`${item.track.artist ?? ''}${item.track.album ?? item.track.title}`}
            />
            <span className="item-text">
              <span className="cell-title">{item.track.title}</span>
              <span className="muted small">{item.track.artist ?? 'Unknown artist'}</span>
            </span>
            <span className="item-time num">{formatDuration(item.track.duration)}</span>
            {canEdit ? (
              <span className="row-actions">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move ${item.track.title} up`}
                  disabled={index === 0}
                  onClick={() => moveBy(index, -1, true)}
                >
                  <UpIcon />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move ${item.track.title} down`}
                  disabled={index === items.length - 1}
                  onClick={() => moveBy(index, 1, true)}
                >
                  <DownIcon />
                </button>
                <button
                  type="button"
                  className="icon-button danger"
                  aria-label={`Remove ${item.track.title}`}
                  onClick={() => remove(item)}
                >
                  <TrashIcon />
                </button>
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      {canEdit ? (
        <p id="reorder-help" className="muted small">
          Drag rows to reorder, or focus a handle and press Space, then the arrow keys.
        </p>
      ) : null}
    </>
  );
}

function PlayOnAir({ playlist }: { playlist: PlaylistDetail }) {
  const [mode, setMode] = useState<'replace' | 'append'>('replace');
  const [busy, setBusy] = useState(false);
  const modeId = useId();
  const play = async () => {
    setBusy(true);
    try {
      const result = await api.playPlaylist(playlist.id, mode);
      toast(`${plural(result.queued, 'track')} sent to the air.`);
    } catch (reason) {
      toast(describeError(reason), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="play-on-air">
      <div className="field compact inline">
        <label htmlFor={modeId}>Queue</label>
        <select
          id={modeId}
          value={mode}
          onChange={(e) => setMode(e.target.value as 'replace' | 'append')}
        >
          <option value="replace">Replace</option>
          <option value="append">Append</option>
        </select>
      </div>
      <button
        type="button"
        className="button primary"
        onClick={play}
        disabled={busy || playlist.items.length === 0}
      >
        <PlayIcon size={18} /> {busy ? 'Sending…' : 'Play on air'}
      </button>
    </div>
  );
}

export default function PlaylistPage({ id }: { id: number }) {
  const { user } = useSession();
  const playlist = useAsync((signal) => api.playlist(id, signal), [id]);
  const [confirming, setConfirming] = useState(false);
  useTitle(playlist.data?.name ?? 'Playlist');

  if (!Number.isInteger(id) || id <= 0) {
    return (
      <section className="page narrow">
        <h1>No such playlist</h1>
        <Link to="/playlists">Back to playlists</Link>
      </section>
    );
  }
  if (playlist.error && !playlist.data) {
    return (
      <section className="page narrow">
        <h1>Playlist</h1>
        <ErrorMessage error={playlist.error} onRetry={playlist.reload} />
        <Link to="/playlists">Back to playlists</Link>
      </section>
    );
  }
  if (!playlist.data) return <Loading label="Loading the playlist…" />;

  const data = playlist.data;
  const canEdit = !!user && (data.owner.id === user.id || hasRole(user, 'admin'));
  const update = (next: PlaylistDetail) => playlist.setData(next);

  const remove = async () => {
    try {
      await api.deletePlaylist(data.id);
      toast(`Deleted ${data.name}.`);
      navigate('/playlists');
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  return (
    <section className="page" aria-labelledby="playlist-heading">
      <p>
        <Link to="/playlists" className="back-link">
          ← Playlists
        </Link>
      </p>
      <div className="card playlist-head">
        <Details key={data.updatedAt} playlist={data} canEdit={canEdit} onChange={update} />
        <div className="playlist-actions">
          {hasRole(user, 'dj') ? <PlayOnAir playlist={data} /> : null}
          {canEdit ? (
            <button
              type="button"
              className="button danger ghost"
              onClick={() => setConfirming(true)}
            >
              <TrashIcon size={18} /> Delete
            </button>
          ) : null}
        </div>
      </div>
      <div className="split wide-first">
        <section className="card" aria-label="Tracks">
          <Items playlist={data} canEdit={canEdit} onChange={update} />
        </section>
        {canEdit ? <AddTracks playlist={data} onChange={update} /> : null}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Delete this playlist?"
        message={`"${data.name}" and its ${plural(data.itemCount, 'item')} will be gone for good.`}
        confirmLabel="Delete playlist"
        danger
        onConfirm={remove}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
