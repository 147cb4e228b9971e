import { useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { PlaylistDetail } from '../api/types.ts';
import { ConfirmDialog } from '../components/dialog.tsx';
import { TrashIcon } from '../components/icons.tsx';
import { Link } from '../components/link.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { plural } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useSession } from '../hooks/use-session.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { navigate } from '../router.ts';
import { hasRole } from '../session.ts';
import { AddTracks } from './playlist/add-tracks.tsx';
import { Details } from './playlist/details.tsx';
import { Items } from './playlist/items.tsx';
import { PlayOnAir } from './playlist/play-on-air.tsx';
import { ProgrammingPart } from './playlist/programming.tsx';

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
      <ProgrammingPart playlist={data} onChange={update} />
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
