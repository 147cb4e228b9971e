import type { UploadResult } from '../../api/uploads.ts';
import { Link } from '../../components/link.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { formatBytes, trackLine } from '../../format.ts';

export type UploadState =
  | 'waiting'
  | 'sending'
  | 'checking'
  | 'added'
  | 'duplicate'
  | 'refused'
  | 'failed'
  | 'cancelled';

export interface UploadItem {
  id: number;
  file: File;
  folder: string;
  state: UploadState;
  sent: number;
  result: UploadResult | null;
  /** Why it was refused or failed. */
  message: string | null;
}

/** A link to a track in the library: its folder, searched by its title. */
function trackLink(track: { path: string; title: string }): string {
  const folder = track.path.split('/').slice(0, -1).join('/');
  const query = new URLSearchParams({ q: track.title, ...(folder ? { folder } : {}) });
  return `/library?${query.toString()}`;
}

function Outcome({ item }: { item: UploadItem }) {
  const { result } = item;
  switch (item.state) {
    case 'waiting':
      return <span className="muted">Waiting</span>;
    case 'sending':
      return (
        <span className="muted">
          {formatBytes(item.sent)} of {formatBytes(item.file.size)}
        </span>
      );
    case 'checking':
      return <span className="muted">Checking the file…</span>;
    case 'added':
      return result?.track ? (
        <span className="upload-ok">
          Added: <Link to={trackLink(result.track)}>{trackLine(result.track)}</Link>
        </span>
      ) : (
        <span className="upload-ok">Added as {result?.path} (indexing)</span>
      );
    case 'duplicate':
      return result?.duplicateOf ? (
        <span className="upload-dup">
          Duplicate of{' '}
          <Link to={trackLink(result.duplicateOf)}>{trackLine(result.duplicateOf)}</Link> (
          {result.duplicateOf.path}): not added
        </span>
      ) : null;
    case 'refused':
      return <span className="upload-bad">Refused: {item.message}</span>;
    case 'failed':
      return <span className="upload-bad">Failed: {item.message}</span>;
    case 'cancelled':
      return <span className="muted">Cancelled</span>;
  }
}

export function UploadRow({
  item,
  onCancel,
  onRetry,
}: {
  item: UploadItem;
  onCancel: (item: UploadItem) => void;
  onRetry: (item: UploadItem) => void;
}) {
  const path = item.folder ? `${item.folder}/${item.file.name}` : item.file.name;
  const busy = item.state === 'waiting' || item.state === 'sending' || item.state === 'checking';
  return (
    <li
      className={`upload-row upload-${item.state}`}
      data-testid="upload-row"
      data-state={item.state}
    >
      <div className="upload-name">
        <span className="cell-title">{path}</span>
        <span className="muted small">{formatBytes(item.file.size)}</span>
      </div>
      <ProgressBar
        value={item.state === 'sending' ? item.sent : item.state === 'waiting' ? 0 : item.file.size}
        max={item.file.size}
        label={`Upload of ${item.file.name}`}
        valueText={`${Math.round((item.sent / Math.max(1, item.file.size)) * 100)}%`}
        tone={busy ? 'accent' : 'muted'}
      />
      <div className="upload-outcome" data-testid="upload-outcome">
        <Outcome item={item} />
      </div>
      <div className="row-actions">
        {busy ? (
          <button type="button" className="button small ghost" onClick={() => onCancel(item)}>
            Cancel
          </button>
        ) : null}
        {item.state === 'failed' || item.state === 'cancelled' ? (
          <button type="button" className="button small" onClick={() => onRetry(item)}>
            Try again
          </button>
        ) : null}
      </div>
    </li>
  );
}
