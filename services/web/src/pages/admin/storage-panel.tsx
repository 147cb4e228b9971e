import { api } from '../../api/client.ts';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { ErrorMessage } from '../../components/status.tsx';
import { formatBytes, plural } from '../../format.ts';
import { useAsync } from '../../hooks/use-async.ts';

/** Space on the music volume, with what the trash and unfinished uploads hold of it. */
export function StoragePanel() {
  const storage = useAsync((signal) => api.storage(signal), []);
  const data = storage.data;
  const music = data?.music;
  const low = music ? music.freeBytes < music.totalBytes * 0.05 : false;
  return (
    <section className="card" aria-labelledby="storage-heading" data-testid="storage">
      <div className="section-head">
        <h2 id="storage-heading">Music volume</h2>
        <button type="button" className="button small ghost" onClick={storage.reload}>
          Refresh
        </button>
      </div>
      {storage.error ? <ErrorMessage error={storage.error} onRetry={storage.reload} /> : null}
      {music && data ? (
        <>
          <ProgressBar
            value={music.usedBytes}
            max={music.totalBytes}
            label="Space used on the music volume"
            valueText={`${formatBytes(music.usedBytes)} of ${formatBytes(music.totalBytes)}`}
          />
          <dl className="stats">
            <div>
              <dt>Free</dt>
              <dd className={low ? 'upload-bad' : undefined} data-testid="storage-free">
                {formatBytes(music.freeBytes)}
              </dd>
            </div>
            <div>
              <dt>Used</dt>
              <dd>
                {formatBytes(music.usedBytes)} of {formatBytes(music.totalBytes)}
              </dd>
            </div>
            <div>
              <dt>Trash</dt>
              <dd>
                {plural(data.trash.files, 'file')}, {formatBytes(data.trash.bytes)}
              </dd>
            </div>
            <div>
              <dt>Unfinished uploads</dt>
              <dd>
                {plural(data.uploads.files, 'file')}, {formatBytes(data.uploads.bytes)}
              </dd>
            </div>
          </dl>
          {low ? (
            <p className="notice">
              Less than 5% is free: uploads may fail. Empty the trash or make room.
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
