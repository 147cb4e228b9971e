import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import type { LibraryScan } from '../../api/types.ts';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { ErrorMessage, Loading } from '../../components/status.tsx';
import { formatAgo, formatBytes, formatLongDuration } from '../../format.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { useLive } from '../../hooks/use-live.ts';
import { toast } from '../../hooks/use-toast.ts';
import { AnalysisProgress } from './analysis-progress.tsx';

/** The newer of two reports on scans: the live event or the REST answer. */
function latestScan(a: LibraryScan | null, b: LibraryScan | null): LibraryScan | null {
  if (!a || !b) return a ?? b;
  if (a.scanId !== b.scanId) return a.startedAt >= b.startedAt ? a : b;
  if (a.state !== 'running') return a;
  if (b.state !== 'running') return b;
  return a.done >= b.done ? a : b;
}

function ProblemTracks({ status, version }: { status: 'invalid' | 'missing'; version: string }) {
  const tracks = useAsync(
    (signal) => api.tracks({ status, limit: 50, sort: 'added', order: 'desc' }, signal),
    [status, version],
  );
  if (tracks.error) return <ErrorMessage error={tracks.error} onRetry={tracks.reload} />;
  if (!tracks.data) return <Loading inline />;
  if (tracks.data.items.length === 0) return <p className="muted">None.</p>;
  return (
    <ul className="problem-list">
      {tracks.data.items.map((track) => (
        <li key={track.id}>
          <code>{track.path}</code>
          {track.error ? <span className="cell-error">{track.error}</span> : null}
        </li>
      ))}
      {tracks.data.total > tracks.data.items.length ? (
        <li className="muted">and {tracks.data.total - tracks.data.items.length} more</li>
      ) : null}
    </ul>
  );
}

export function LibraryTab() {
  const liveScan = useLive((s) => s.scan);
  const status = useAsync((signal) => api.scanStatus(signal), []);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const scan = latestScan(liveScan, status.data?.scan ?? null);
  const running = scan?.state === 'running';
  const { reload } = status;

  // Poll while a scan runs, in case the event stream is behind a buffering proxy.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(reload, 2000);
    return () => clearInterval(timer);
  }, [running, reload]);

  // The counts change when a scan ends: fetch them again once.
  const finishedAt = scan?.finishedAt ?? null;
  useEffect(() => {
    if (finishedAt) reload();
  }, [finishedAt, reload]);

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      await api.startScan();
      toast('Rescan started.');
      reload();
    } catch (reason) {
      setError(reason);
    } finally {
      setStarting(false);
    }
  };

  const library = status.data?.library;
  const percent =
    scan && scan.total > 0 ? Math.round((scan.done / scan.total) * 100) : running ? 0 : 100;
  return (
    <div className="stack">
      <section className="card" aria-labelledby="scan-heading">
        <div className="section-head">
          <h2 id="scan-heading">Library scan</h2>
          <button
            type="button"
            className="button primary"
            onClick={start}
            disabled={starting || running}
          >
            {running ? 'Scanning…' : starting ? 'Starting…' : 'Rescan library'}
          </button>
        </div>
        {error ? <ErrorMessage error={error} /> : null}
        {status.error ? <ErrorMessage error={status.error} onRetry={reload} /> : null}
        {scan ? (
          <div
            className="scan"
            data-testid="scan"
            data-state={scan.state}
            data-scan-id={scan.scanId}
          >
            <ProgressBar
              value={scan.state === 'running' ? scan.done : Math.max(scan.done, scan.total)}
              max={Math.max(1, scan.total)}
              label="Scan progress"
              valueText={`${percent}%`}
            />
            <p className="scan-line" aria-live="polite">
              {scan.state === 'running'
                ? `Scanning: ${scan.done.toLocaleString()} of ${scan.total.toLocaleString()} files (${percent}%)`
                : scan.state === 'done'
                  ? `Finished ${scan.finishedAt ? formatAgo(scan.finishedAt) : ''}: ${scan.total.toLocaleString()} files looked at.`
                  : `Failed: ${scan.error ?? 'unknown error'}`}
            </p>
            <dl className="stats">
              <div>
                <dt>Indexed</dt>
                <dd data-testid="scan-indexed">{scan.indexed.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Invalid</dt>
                <dd data-testid="scan-invalid">{scan.invalid.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Missing</dt>
                <dd data-testid="scan-missing">{scan.missing.toLocaleString()}</dd>
              </div>
            </dl>
          </div>
        ) : status.loading ? (
          <Loading inline />
        ) : (
          <p className="muted">No scan has run since the station started.</p>
        )}
      </section>
      <section className="card" aria-labelledby="analysis-heading">
        <h2 id="analysis-heading">Loudness and cue analysis</h2>
        {status.data || !status.loading ? (
          <AnalysisProgress fromApi={status.data?.analysis ?? null} />
        ) : (
          <Loading inline />
        )}
      </section>
      {library ? (
        <section className="card" aria-labelledby="size-heading">
          <h2 id="size-heading">Library</h2>
          <dl className="stats">
            <div>
              <dt>Playable</dt>
              <dd>{library.ok.toLocaleString()}</dd>
            </div>
            <div>
              <dt>Invalid</dt>
              <dd>{library.invalid.toLocaleString()}</dd>
            </div>
            <div>
              <dt>Missing</dt>
              <dd>{library.missing.toLocaleString()}</dd>
            </div>
            <div>
              <dt>Length</dt>
              <dd>{formatLongDuration(library.duration)}</dd>
            </div>
            <div>
              <dt>Size</dt>
              <dd>{formatBytes(library.size)}</dd>
            </div>
          </dl>
        </section>
      ) : null}
      <div className="split even">
        <section className="card" aria-labelledby="invalid-heading">
          <h2 id="invalid-heading">Invalid files</h2>
          <ProblemTracks status="invalid" version={`${finishedAt ?? ''}`} />
        </section>
        <section className="card" aria-labelledby="missing-heading">
          <h2 id="missing-heading">Missing files</h2>
          <ProblemTracks status="missing" version={`${finishedAt ?? ''}`} />
        </section>
      </div>
    </div>
  );
}
