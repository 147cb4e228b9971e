import { api } from '../../api/client.ts';
import type { AuditEntry } from '../../api/types.ts';
import { Pagination } from '../../components/pagination.tsx';
import { Empty, ErrorMessage, Loading } from '../../components/status.tsx';
import { formatAgo, formatBytes, formatTime } from '../../format.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { setSearchParams, useLocation } from '../../router.ts';

const ACTIONS = [
  'track.upload',
  'track.tags',
  'track.cover',
  'track.move',
  'track.delete',
  'track.restore',
  'trash.purge',
  'folder.create',
];

/** The few details worth a glance; the rest stays in the API's answer. */
function summary(entry: AuditEntry): string {
  const details = entry.details ?? {};
  const parts: string[] = [];
  if (typeof details.format === 'string') parts.push(details.format);
  if (typeof details.size === 'number') parts.push(formatBytes(details.size));
  if (typeof details.to === 'string') parts.push(`to ${details.to}`);
  if (typeof details.from === 'string') parts.push(`from ${details.from}`);
  return parts.join(' · ');
}

/** Who changed the library, newest first, by action. */
export function AuditTab() {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const action = params.get('action') ?? '';
  const log = useAsync(
    (signal) => api.audit({ page, limit: 50, ...(action ? { action } : {}) }, signal),
    [page, action],
  );
  const data = log.data;
  return (
    <div className="stack">
      <div className="filter-row">
        <label className="field">
          <span>Action</span>
          <select
            value={action}
            onChange={(event) =>
              setSearchParams({ action: event.target.value || null, page: null })
            }
          >
            <option value="">All</option>
            {ACTIONS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {log.error ? <ErrorMessage error={log.error} onRetry={log.reload} /> : null}
      {!data && log.loading ? <Loading label="Reading the audit log…" /> : null}
      {data && data.items.length === 0 ? <Empty>Nothing in the audit log yet.</Empty> : null}
      {data && data.items.length > 0 ? (
        <div className="table-wrap">
          <table className="table compact-table" data-testid="audit-log">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">What</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((entry) => (
                <tr key={entry.id}>
                  <td title={formatTime(entry.at, true)}>{formatAgo(entry.at)}</td>
                  <td>{entry.username ?? 'the station'}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td className="cell-title">{entry.target ?? ''}</td>
                  <td className="muted small">{summary(entry)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pagination
        of={data}
        onPage={(next) => setSearchParams({ page: next })}
        label="Audit pages"
      />
    </div>
  );
}
