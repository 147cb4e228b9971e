import { useId, useState } from 'react';
import { api } from '../../api/client.ts';
import { describeError } from '../../api/errors.ts';
import { PlusIcon, SearchIcon } from '../../components/icons.tsx';
import { ErrorMessage, Loading } from '../../components/status.tsx';
import { useAsync } from '../../hooks/use-async.ts';
import { useDebounced } from '../../hooks/use-debounced.ts';
import { toast } from '../../hooks/use-toast.ts';
import type { PlaylistPartProps } from './part-props.ts';

/** A search of the library, each result one click from the playlist. */
export function AddTracks({ playlist, onChange }: Omit<PlaylistPartProps, 'canEdit'>) {
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
