import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { Track } from '../api/types.ts';
import { plural } from '../format.ts';
import { Dialog } from './dialog.tsx';

interface Outcome {
  deleted: number;
  playlists: number;
  queue: number;
  requests: number;
  onAir: string[];
  errors: string[];
}

/** What deleting did, in words: the notice the user reads before closing. */
function Notice({ outcome }: { outcome: Outcome }) {
  return (
    <div role="status" data-testid="delete-notice" className="delete-notice">
      <p>Moved {plural(outcome.deleted, 'track')} to the Trash (restorable from the Trash page).</p>
      <p>
        Removed from playlists: {plural(outcome.playlists, 'entry', 'entries')}. Removed from the
        queue: {plural(outcome.queue, 'entry', 'entries')}.
        {outcome.requests > 0 &&
          ` Listener requests removed: ${outcome.requests} (their listeners see why).`}
      </p>
      {outcome.onAir.map((title) => (
        <p key={title}>"{title}" is on air now: it plays to its end.</p>
      ))}
      {outcome.errors.map((error) => (
        <p key={error} className="form-error">
          {error}
        </p>
      ))}
    </div>
  );
}

/** Deletes tracks to the trash after a confirmation, then says what went with them. */
export function DeleteTracksDialog({
  tracks,
  onClose,
  onDeleted,
}: {
  tracks: Track[];
  onClose: () => void;
  onDeleted: () => void;
}) {
  const open = tracks.length > 0;
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new choice of tracks starts afresh
  useEffect(() => setOutcome(null), [open]);

  const remove = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result: Outcome = {
      deleted: 0,
      playlists: 0,
      queue: 0,
      requests: 0,
      onAir: [],
      errors: [],
    };
    for (const track of tracks) {
      try {
        const done = await api.deleteTrack(track.id);
        result.deleted += 1;
        result.playlists += done.removedFromPlaylists;
        result.queue += done.removedFromQueue;
        result.requests += done.removedRequests;
        if (done.onAir) result.onAir.push(track.title);
      } catch (error) {
        result.errors.push(`"${track.title}": ${describeError(error)}`);
      }
    }
    setBusy(false);
    setOutcome(result);
    onDeleted();
  };

  const title = `Delete ${plural(tracks.length, 'track')}`;
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      {outcome ? (
        <>
          <Notice outcome={outcome} />
          <div className="dialog-actions">
            <button type="button" className="button primary" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={remove}>
          <p>
            {tracks.length === 1 ? `"${tracks[0]?.title}"` : plural(tracks.length, 'track')} will go
            to the Trash and leave every playlist and the queue; listeners' pending requests of{' '}
            {tracks.length === 1 ? 'it' : 'them'} are removed. A track on air plays to its end.
          </p>
          <div className="dialog-actions">
            <button type="button" className="button ghost" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button danger" disabled={busy}>
              {busy ? 'Deleting…' : 'Delete'}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
