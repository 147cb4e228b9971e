import { useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { Recording } from '../api/types.ts';
import { ConfirmDialog } from '../components/dialog.tsx';
import { Pagination } from '../components/pagination.tsx';
import { Empty, ErrorMessage, Loading } from '../components/status.tsx';
import { formatBytes, formatDuration } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useSession } from '../hooks/use-session.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';

const PAGE_SIZE = 25;

/** Recorded live shows: an admin sees all, a DJ its own; download and delete. */
export default function RecordingsPage() {
  useTitle('Recordings');
  const { user } = useSession();
  const [page, setPage] = useState(1);
  const list = useAsync((signal) => api.recordings({ page, limit: PAGE_SIZE }, signal), [page]);
  const [deleting, setDeleting] = useState<Recording | null>(null);
  const items = list.data?.items ?? [];

  const remove = async (recording: Recording) => {
    try {
      await api.deleteRecording(recording.id);
      toast(`Deleted the recording of ${recording.djName}'s show.`);
      list.reload();
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  return (
    <section className="page" aria-labelledby="recordings-heading">
      <div className="page-head">
        <h1 id="recordings-heading">Recordings</h1>
      </div>
      <section className="card">
        <p className="muted small">
          {user?.role === 'admin' ? "Every DJ's recorded shows." : 'Your recorded shows.'} Shows are
          recorded (MP3, 128 kbit/s) for DJs whose account has recording on.
        </p>
        {list.error ? <ErrorMessage error={list.error} onRetry={list.reload} /> : null}
        {list.loading && !list.data ? <Loading inline /> : null}
        {list.data && items.length === 0 ? <Empty>No recorded show yet.</Empty> : null}
        {items.length > 0 ? (
          <div className="table-wrap">
            <table className="table" aria-label="Recordings">
              <thead>
                <tr>
                  <th scope="col">DJ</th>
                  <th scope="col">Started</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Peak listeners</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((recording) => (
                  <tr key={recording.id}>
                    <td>
                      <span className="cell-title">{recording.djName}</span>
                      {recording.error ? (
                        <div className="small form-error">{recording.error}</div>
                      ) : null}
                    </td>
                    <td>
                      <time dateTime={recording.startedAt}>
                        {new Date(recording.startedAt).toLocaleString()}
                      </time>
                    </td>
                    <td>
                      {recording.duration === null ? 'on air' : formatDuration(recording.duration)}
                      {recording.bytes ? (
                        <div className="muted small">{formatBytes(recording.bytes)}</div>
                      ) : null}
                    </td>
                    <td>{recording.peakListeners}</td>
                    <td>
                      <div className="row-actions">
                        <a className="button small" href={api.recordingUrl(recording.id)} download>
                          Download
                        </a>
                        <button
                          type="button"
                          className="button small ghost danger"
                          disabled={recording.endedAt === null}
                          onClick={() => setDeleting(recording)}
                          aria-label={`Delete the recording of ${recording.djName}`}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <Pagination of={list.data} onPage={setPage} label="Recording pages" />
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this recording?"
        message="The file is deleted for good."
        confirmLabel="Delete"
        danger
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
