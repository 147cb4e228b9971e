import { type FormEvent, useId, useState } from 'react';
import { api } from '../api/client.ts';
import type { PlaylistScope } from '../api/types.ts';
import { Link } from '../components/link.tsx';
import { Pagination } from '../components/pagination.tsx';
import { PlaylistFields } from '../components/playlist-fields.tsx';
import { Empty, ErrorMessage, FormError, Loading } from '../components/status.tsx';
import { formatLongDuration, plural } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useSession } from '../hooks/use-session.ts';
import { useSubmit } from '../hooks/use-submit.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { navigate } from '../router.ts';

const LIMIT = 24;

function CreatePlaylist() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPublic, setIsPublic] = useState(false);
  const { busy, error, setError, run } = useSubmit();
  const isPublicId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Give the playlist a name.');
      return;
    }
    await run(async () => {
      const playlist = await api.createPlaylist({
        name: name.trim(),
        description: description.trim() || null,
        isPublic,
      });
      toast(`Created ${playlist.name}.`);
      navigate(`/playlists/${playlist.id}`);
    });
  };

  return (
    <form className="card create-playlist" onSubmit={submit} aria-labelledby="create-heading">
      <h2 id="create-heading">New playlist</h2>
      <PlaylistFields
        name={name}
        description={description}
        onName={setName}
        onDescription={setDescription}
        descriptionRows={2}
      />
      <label className="checkbox" htmlFor={isPublicId}>
        <input
          id={isPublicId}
          type="checkbox"
          checked={isPublic}
          onChange={(e) => setIsPublic(e.target.checked)}
        />
        Public: other listeners can see it
      </label>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create playlist'}
      </button>
    </form>
  );
}

export default function PlaylistsPage() {
  useTitle('Playlists');
  const { user } = useSession();
  const [scope, setScope] = useState<PlaylistScope>('all');
  const [page, setPage] = useState(1);
  const scopeId = useId();
  const playlists = useAsync(
    (signal) => api.playlists({ scope, page, limit: LIMIT }, signal),
    [scope, page],
  );

  return (
    <section className="page" aria-labelledby="playlists-heading">
      <div className="page-head">
        <h1 id="playlists-heading">Playlists</h1>
        <div className="field compact inline">
          <label htmlFor={scopeId}>Show</label>
          <select
            id={scopeId}
            value={scope}
            onChange={(e) => {
              setScope(e.target.value as PlaylistScope);
              setPage(1);
            }}
          >
            <option value="all">Mine and public</option>
            <option value="mine">Mine</option>
            <option value="public">Public</option>
          </select>
        </div>
      </div>
      <div className="split">
        <div>
          {playlists.error ? (
            <ErrorMessage error={playlists.error} onRetry={playlists.reload} />
          ) : null}
          {playlists.loading && !playlists.data ? <Loading label="Loading playlists…" /> : null}
          {playlists.data && playlists.data.items.length === 0 ? (
            <Empty>No playlists yet. Create the first one.</Empty>
          ) : null}
          {playlists.data && playlists.data.items.length > 0 ? (
            <ul className="playlist-grid">
              {playlists.data.items.map((playlist) => (
                <li key={playlist.id}>
                  <Link to={`/playlists/${playlist.id}`} className="card playlist-card">
                    <span className="playlist-name">{playlist.name}</span>
                    <span className="muted small">
                      {plural(playlist.itemCount, 'track')} ·{' '}
                      {formatLongDuration(playlist.duration)}
                    </span>
                    <span className="playlist-meta">
                      {playlist.isPublic ? (
                        <span className="badge">public</span>
                      ) : (
                        <span className="badge badge-muted">private</span>
                      )}
                      {playlist.owner.id === user?.id ? null : (
                        <span className="muted small">by {playlist.owner.username}</span>
                      )}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          <Pagination of={playlists.data} onPage={setPage} label="Playlist pages" />
        </div>
        <CreatePlaylist />
      </div>
    </section>
  );
}
