import { type FormEvent, useEffect, useId, useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { TagEdit, Track } from '../api/types.ts';
import { plural } from '../format.ts';
import { toast } from '../hooks/use-toast.ts';
import { Dialog } from './dialog.tsx';
import { FormError } from './status.tsx';

type TextTag = 'title' | 'artist' | 'album' | 'albumArtist' | 'genre';
type Field = TextTag | 'year' | 'trackNumber';

const FIELDS: { name: Field; label: string; numeric?: boolean }[] = [
  { name: 'title', label: 'Title' },
  { name: 'artist', label: 'Artist' },
  { name: 'album', label: 'Album' },
  { name: 'albumArtist', label: 'Album artist' },
  { name: 'genre', label: 'Genre' },
  { name: 'year', label: 'Year', numeric: true },
  { name: 'trackNumber', label: 'Track number', numeric: true },
];

type Values = Record<Field, string>;

function valuesOf(track: Track | null): Values {
  return {
    title: track?.title ?? '',
    artist: track?.artist ?? '',
    album: track?.album ?? '',
    // The library does not keep the album artist: blank means "leave as it is".
    albumArtist: '',
    genre: track?.genre ?? '',
    year: track?.year ? String(track.year) : '',
    trackNumber: track?.trackNo ? String(track.trackNo) : '',
  };
}

/**
 * One track: every field as it is now, each change written into the file. Many tracks: only
 * the fields filled in are written, the same value into each file.
 */
function changesOf(values: Values, before: Values, single: boolean): TagEdit | string {
  const edit: Record<string, string | number | null> = {};
  for (const { name, numeric } of FIELDS) {
    const text = values[name].trim();
    if (single ? text === before[name].trim() : text === '') continue;
    if (!numeric) {
      edit[name] = text === '' ? null : text;
      continue;
    }
    if (text === '') {
      edit[name] = null;
      continue;
    }
    const number = Number(text);
    if (!Number.isInteger(number) || number < 1)
      return `${name === 'year' ? 'Year' : 'Track number'} must be a whole number`;
    edit[name] = number;
  }
  return edit as TagEdit;
}

/** Edits the tags of one track or many, and the cover picture of one. */
export function EditTagsDialog({
  tracks,
  onClose,
  onSaved,
}: {
  tracks: Track[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const open = tracks.length > 0;
  const single = tracks.length === 1 ? (tracks[0] as Track) : null;
  const [values, setValues] = useState<Values>(() => valuesOf(single));
  const [cover, setCover] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const baseId = useId();
  const trackKey = tracks.map((track) => track.id).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new choice of tracks starts afresh
  useEffect(() => {
    setValues(valuesOf(single));
    setCover(null);
    setError(null);
  }, [trackKey]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const edit = changesOf(values, valuesOf(single), single !== null);
    if (typeof edit === 'string') return setError(edit);
    const changed = Object.keys(edit).length > 0;
    if (!changed && !cover) return setError('Change at least one field.');
    setBusy(true);
    setError(null);
    try {
      if (single) {
        if (changed) await api.editTags(single.id, edit);
        if (cover) await api.setCover(single.id, cover);
        toast(`Saved the tags of "${values.title.trim() || single.title}".`);
      } else {
        const result = await api.editTagsMany(
          tracks.map((track) => track.id),
          edit,
        );
        const failed = result.failed.length;
        toast(
          `Saved the tags of ${plural(result.updated.length, 'track')}${failed ? `; ${failed} failed: ${result.failed[0]?.error.message}` : ''}.`,
          failed ? 'error' : 'info',
        );
      }
      onSaved();
      onClose();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  const title = single
    ? `Edit tags of "${single.title}"`
    : `Edit tags of ${plural(tracks.length, 'track')}`;
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <form onSubmit={save} className="tag-form" data-testid="edit-tags">
        {single ? null : (
          <p className="muted">Only the fields you fill in are changed, in every file.</p>
        )}
        {FIELDS.map(({ name, label, numeric }) => (
          <div className="field" key={name}>
            <label htmlFor={`${baseId}-${name}`}>{label}</label>
            <input
              id={`${baseId}-${name}`}
              name={name}
              value={values[name]}
              inputMode={numeric ? 'numeric' : undefined}
              maxLength={numeric ? 4 : 500}
              placeholder={single ? undefined : 'Leave as it is'}
              onChange={(event) => setValues({ ...values, [name]: event.target.value })}
            />
          </div>
        ))}
        {single ? (
          <div className="field">
            <label htmlFor={`${baseId}-cover`}>Cover picture (JPEG or PNG, up to 10 MB)</label>
            <input
              id={`${baseId}-cover`}
              type="file"
              accept="image/jpeg,image/png"
              onChange={(event) => setCover(event.target.files?.[0] ?? null)}
            />
          </div>
        ) : null}
        <FormError error={error} />
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save to the files'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
