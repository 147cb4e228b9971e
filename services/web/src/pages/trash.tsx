import { useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { TrashEntry } from '../api/types.ts';
import { ConfirmDialog } from '../components/dialog.tsx';
import { Pagination } from '../components/pagination.tsx';
import { Empty, ErrorMessage, Loading } from '../components/status.tsx';
import { formatAgo, formatBytes, formatTime, plural } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useSession } from '../hooks/use-session.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { setSearchParams, useLocation } from '../router.ts';

/**
 * Deleted tracks, restorable until their time in the trash (TRASH_DAYS) runs out; only an
 * admin deletes them for good.
 */
export default function TrashPage() {
  useTitle('Trash');
  const admin = useSession().user?.role === 'admin';
  const { search } = useLocation();
  const pageNumber = Math.max(1, Number(new URLSearchParams(search).get('page')) || 1);
  const entries = useAsync(
    (signal) => api.trash({ page: pageNumber, limit: 50 }, signal),
    [search],
  );
  const [purging, setPurging] = useState<TrashEntry | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const restore = async (entry: TrashEntry) => {
    setBusy(entry.id);
    try {
      const track = await api.restoreTrash(entry.id);
      toast(`Restored "${track.title}" to ${track.path}.`);
      entries.reload();
    } catch (error) {
      toast(describeError(error), 'error');
    } finally {
      setBusy(null);
    }
  };

  const purge = async (entry: TrashEntry) => {
    setBusy(entry.id);
    try {
      await api.purgeTrash(entry.id);
      toast(`Deleted "${entry.title}" for good.`);
      entries.reload();
    } catch (error) {
      toast(describeError(error), 'error');
    } finally {
      setBusy(null);
    }
  };

  const page = entries.data;
  return (
    <section className="page" aria-labelledby="trash-heading">
      <div className="page-head">
        <h1 id="trash-heading">Trash</h1>
        <p className="muted" aria-live="polite">
          {page ? plural(page.total, 'deleted track') : ' '}
        </p>
      </div>
      {entries.error ? <ErrorMessage error={entries.error} onRetry={entries.reload} /> : null}
      {entries.loading && !page ? <Loading label="Loading the trash…" /> : null}
      {page && page.items.length === 0 ? <Empty>The trash is empty.</Empty> : null}
      {page && page.items.length > 0 ? (
        <div className="table-wrap">
          <table className="table" aria-label="Deleted tracks">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Was at</th>
                <th scope="col" className="hide-narrow">
                  Deleted
                </th>
                <th scope="col" className="hide-medium">
                  Kept until
                </th>
                <th scope="col" className="actions-col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((entry) => (
                <tr key={entry.id} data-testid="trash-row">
                  <td>
                    <span className="cell-title">{entry.title}</span>
                    <span className="muted small"> {entry.artist ?? ''}</span>
                  </td>
                  <td>
                    <code>{entry.originalPath}</code>{' '}
                    <span className="muted small">{formatBytes(entry.size)}</span>
                  </td>
                  <td className="hide-narrow">{formatAgo(entry.deletedAt)}</td>
                  <td className="hide-medium">{formatTime(entry.expiresAt)}</td>
                  <td className="actions-col">
                    <div className="row-actions">
                      <button
                        type="button"
                        className="button small"
                        disabled={busy === entry.id}
                        onClick={() => restore(entry)}
                        aria-label={`Restore ${entry.title}`}
                      >
                        Restore
                      </button>
                      {admin ? (
                        <button
                          type="button"
                          className="button small danger"
                          disabled={busy === entry.id}
                          onClick={() => setPurging(entry)}
                          aria-label={`Delete ${entry.title} forever`}
                        >
                          Delete forever
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
        label="Trash pages"
        onPage={(next) => setSearchParams({ page: next })}
      />
      <ConfirmDialog
        open={purging !== null}
        title="Delete forever"
        message={`"${purging?.title ?? ''}" and its file will be gone for good.`}
        confirmLabel="Delete forever"
        danger
        onConfirm={() => {
          if (purging) void purge(purging);
        }}
        onClose={() => setPurging(null)}
      />
    </section>
  );
}
