import { type FormEvent, useId, useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { Track } from '../api/types.ts';
import { plural } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { toast } from '../hooks/use-toast.ts';
import { Dialog } from './dialog.tsx';
import { FormError } from './status.tsx';

/** Moves tracks into a folder of the library, an existing one or a new one by name. */
export function MoveTracksDialog({
  tracks,
  onClose,
  onMoved,
}: {
  tracks: Track[];
  onClose: () => void;
  onMoved: () => void;
}) {
  const open = tracks.length > 0;
  const folders = useAsync(
    (signal) => (open ? api.folders(signal) : Promise.resolve(null)),
    [open],
  );
  const [folder, setFolder] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const inputId = useId();

  const move = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await api.moveTracks(
        tracks.map((track) => track.id),
        folder.trim(),
      );
      const where = folder.trim() || 'the top folder';
      if (result.failed.length > 0) {
        setError(
          `Moved ${plural(result.moved.length, 'track')}; ${result.failed.length} not: ${result.failed[0]?.error.message}`,
        );
        onMoved();
        return;
      }
      toast(`Moved ${plural(result.moved.length, 'track')} to ${where}.`);
      onMoved();
      onClose();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title={`Move ${plural(tracks.length, 'track')} to a folder`}
      onClose={onClose}
    >
      <form onSubmit={move} data-testid="move-tracks">
        <div className="field">
          <label htmlFor={inputId}>Folder (pick one, or type a new name such as Jazz/Live)</label>
          <input
            id={inputId}
            list={listId}
            value={folder}
            maxLength={1024}
            placeholder="The top folder"
            onChange={(event) => setFolder(event.target.value)}
          />
          <datalist id={listId}>
            {folders.data?.folders
              .filter((each) => each.path !== '')
              .map((each) => (
                <option key={each.path} value={each.path}>
                  {`${each.path} (${each.total})`}
                </option>
              ))}
          </datalist>
        </div>
        <FormError error={error} />
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            Close
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Moving…' : 'Move'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
