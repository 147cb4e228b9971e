import { type FormEvent, useId, useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { Track } from '../api/types.ts';
import { useAsync } from '../hooks/use-async.ts';
import { toast } from '../hooks/use-toast.ts';
import { Dialog } from './dialog.tsx';
import { ErrorMessage, Loading } from './status.tsx';

/** Picks one of my playlists (or makes a new one) and adds `track` to its end. */
export function AddToPlaylistDialog({
  track,
  onClose,
}: {
  track: Track | null;
  onClose: () => void;
}) {
  const open = track !== null;
  const playlists = useAsync(
    (signal) =>
      open ? api.playlists({ scope: 'mine', limit: 200 }, signal) : Promise.resolve(null),
    [open],
  );
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const nameId = useId();

  const add = async (playlistId: number, playlistName: string) => {
    if (!track) return;
    setBusy(true);
    try {
      await api.addToPlaylist(playlistId, [track.id]);
      toast(`Added "${track.title}" to ${playlistName}.`);
      onClose();
    } catch (error) {
      toast(describeError(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || !track) return;
    setBusy(true);
    try {
      const playlist = await api.createPlaylist({ name: trimmed });
      await api.addToPlaylist(playlist.id, [track.id]);
      toast(`Created ${playlist.name} with "${track.title}".`);
      setName('');
      onClose();
    } catch (error) {
      toast(describeError(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title={track ? `Add "${track.title}" to a playlist` : 'Add to a playlist'}
      onClose={onClose}
    >
      {playlists.loading && !playlists.data ? <Loading inline /> : null}
      {playlists.error ? <ErrorMessage error={playlists.error} onRetry={playlists.reload} /> : null}
      {playlists.data && playlists.data.items.length > 0 ? (
        <ul className="choice-list">
          {playlists.data.items.map((playlist) => (
            <li key={playlist.id}>
              <button
                type="button"
                className="choice"
                disabled={busy}
                onClick={() => add(playlist.id, playlist.name)}
              >
                <span>{playlist.name}</span>
                <span className="muted small">{playlist.itemCount} tracks</span>
              </button>
            </li>
          ))}
        </ul>
      ) : playlists.data ? (
        <p className="muted">You have no playlists yet. Make one:</p>
      ) : null}
      <form className="inline-form" onSubmit={create}>
        <label htmlFor={nameId} className="visually-hidden">
          New playlist name
        </label>
        <input
          id={nameId}
          placeholder="New playlist name"
          value={name}
          maxLength={200}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="button primary" disabled={busy || !name.trim()}>
          Create and add
        </button>
      </form>
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
