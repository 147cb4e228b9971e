import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import { describeError } from '../../api/errors.ts';
import { PlaylistFields } from '../../components/playlist-fields.tsx';
import { FormError } from '../../components/status.tsx';
import { formatLongDuration, plural } from '../../format.ts';
import { useSubmit } from '../../hooks/use-submit.ts';
import { toast } from '../../hooks/use-toast.ts';
import type { PlaylistPartProps } from './part-props.ts';

/** The name, description and visibility, and their editing. */
export function Details({ playlist, canEdit, onChange }: PlaylistPartProps) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(playlist.name);
  const [description, setDescription] = useState(playlist.description ?? '');
  const { busy, error, setError, run } = useSubmit();
  const isPublicId = useId();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('The name must not be empty.');
      return;
    }
    await run(async () => {
      onChange(
        await api.updatePlaylist(playlist.id, {
          name: name.trim(),
          description: description.trim() || null,
        }),
      );
      setEditing(false);
      toast('Saved.');
    });
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
        <FormError error={error} />
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
