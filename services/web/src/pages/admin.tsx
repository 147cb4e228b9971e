import { type FormEvent, useEffect, useId, useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { Check, LibraryScan, Role, User } from '../api/types.ts';
import { ConfirmDialog, Dialog } from '../components/dialog.tsx';
import { Link } from '../components/link.tsx';
import { ListenersChart } from '../components/listeners-chart.tsx';
import { Pagination } from '../components/pagination.tsx';
import { ProgressBar } from '../components/progress-bar.tsx';
import { Empty, ErrorMessage, Loading } from '../components/status.tsx';
import { formatAgo, formatBytes, formatLongDuration, plural } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useDebounced } from '../hooks/use-debounced.ts';
import { useLive } from '../hooks/use-live.ts';
import { useNow } from '../hooks/use-now.ts';
import { useSession } from '../hooks/use-session.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { session } from '../session.ts';

const TABS = [
  { id: 'users', label: 'Users' },
  { id: 'library', label: 'Library' },
  { id: 'system', label: 'System' },
  { id: 'listeners', label: 'Listeners' },
] as const;
const ROLES: Role[] = ['listener', 'dj', 'admin'];

// ---------------------------------------------------------------------------------------------
// Users

function CreateUser({ onCreated }: { onCreated: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('listener');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { user: useId(), pass: useId(), role: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const user = await api.createUser({ username: username.trim(), password, role });
      toast(`Created ${user.username} (${user.role}).`);
      setUsername('');
      setPassword('');
      setRole('listener');
      onCreated();
    } catch (reason) {
      setError(describeError(reason));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="new-user-heading">
      <h2 id="new-user-heading">New account</h2>
      <div className="field">
        <label htmlFor={ids.user}>User name</label>
        <input
          id={ids.user}
          value={username}
          autoComplete="off"
          maxLength={32}
          onChange={(e) => setUsername(e.target.value)}
          required
        />
      </div>
      <div className="field">
        <label htmlFor={ids.pass}>Password</label>
        <input
          id={ids.pass}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          minLength={8}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.role}>Role</label>
        <select id={ids.role} value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button primary" disabled={busy}>
        Create account
      </button>
    </form>
  );
}

function ResetPassword({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    if (password.length < 8) {
      setError('The password needs at least 8 characters.');
      return;
    }
    try {
      await api.updateUser(user.id, { password });
      toast(`New password set for ${user.username}.`);
      setPassword('');
      setError(null);
      onClose();
    } catch (reason) {
      setError(describeError(reason));
    }
  };
  return (
    <Dialog
      open={user !== null}
      title={`Reset the password of ${user?.username ?? ''}`}
      onClose={onClose}
    >
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor={id}>New password</label>
          <input
            id={id}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary">
            Set password
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function UsersTab() {
  const { user: me } = useSession();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), 250);
  const [page, setPage] = useState(1);
  const [resetting, setResetting] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const searchId = useId();
  const users = useAsync(
    (signal) => api.users({ q: q || undefined, page, limit: 25 }, signal),
    [q, page],
  );

  const update = async (user: User, changes: { role?: Role; disabled?: boolean }, done: string) => {
    try {
      const updated = await api.updateUser(user.id, changes);
      if (users.data) {
        users.setData({
          ...users.data,
          items: users.data.items.map((u) => (u.id === updated.id ? updated : u)),
        });
      }
      if (updated.id === me?.id) session.setUser(updated);
      toast(done);
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  const remove = async (user: User) => {
    try {
      await api.deleteUser(user.id);
      toast(`Deleted ${user.username}.`);
      users.reload();
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  return (
    <div className="split wide-first">
      <section className="card" aria-labelledby="users-heading">
        <div className="section-head">
          <h2 id="users-heading">Accounts</h2>
          <div className="field compact inline">
            <label htmlFor={searchId} className="visually-hidden">
              Find a user
            </label>
            <input
              id={searchId}
              type="search"
              placeholder="Find a user"
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setPage(1);
              }}
            />
          </div>
        </div>
        {users.error ? <ErrorMessage error={users.error} onRetry={users.reload} /> : null}
        {users.loading && !users.data ? <Loading inline /> : null}
        {users.data && users.data.items.length === 0 ? <Empty>No account matches.</Empty> : null}
        {users.data && users.data.items.length > 0 ? (
          <div className="table-wrap">
            <table className="table users-table" aria-label="Accounts">
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Role</th>
                  <th scope="col">Enabled</th>
                  <th scope="col" className="hide-narrow">
                    Last sign-in
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.data.items.map((user) => (
                  <tr key={user.id}>
                    <td>
                      <span className="cell-title">{user.username}</span>
                      {user.id === me?.id ? <span className="muted small"> (you)</span> : null}
                    </td>
                    <td>
                      <select
                        aria-label={`Role of ${user.username}`}
                        value={user.role}
                        onChange={(e) =>
                          update(
                            user,
                            { role: e.target.value as Role },
                            `${user.username} is now ${e.target.value}.`,
                          )
                        }
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      <label className="switch">
                        <input
                          type="checkbox"
                          role="switch"
                          checked={!user.disabled}
                          aria-checked={!user.disabled}
                          aria-label={`${user.username} enabled`}
                          onChange={(e) =>
                            update(
                              user,
                              { disabled: !e.target.checked },
                              e.target.checked
                                ? `Enabled ${user.username}.`
                                : `Disabled ${user.username}.`,
                            )
                          }
                        />
                        <span aria-hidden="true">{user.disabled ? 'Disabled' : 'Active'}</span>
                      </label>
                    </td>
                    <td className="hide-narrow muted">
                      {user.lastLoginAt ? formatAgo(user.lastLoginAt) : 'never'}
                    </td>
                    <td>
                      <div className="row-actions">
                        <button
                          type="button"
                          className="button small ghost"
                          onClick={() => setResetting(user)}
                          aria-label={`Reset the password of ${user.username}`}
                        >
                          Reset password
                        </button>
                        <button
                          type="button"
                          className="button small ghost danger"
                          onClick={() => setDeleting(user)}
                          aria-label={`Delete ${user.username}`}
                          disabled={user.id === me?.id}
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
        {users.data ? (
          <Pagination
            page={users.data.page}
            limit={users.data.limit}
            total={users.data.total}
            onPage={setPage}
            label="Account pages"
          />
        ) : null}
      </section>
      <CreateUser onCreated={users.reload} />
      <ResetPassword user={resetting} onClose={() => setResetting(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.username ?? ''}?`}
        message="The account and its playlists will be gone for good."
        confirmLabel="Delete account"
        danger
        onConfirm={() => {
          if (deleting) void remove(deleting);
        }}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Library

/** The newer of two reports on scans: the live event or the REST answer. */
export function latestScan(a: LibraryScan | null, b: LibraryScan | null): LibraryScan | null {
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

function LibraryTab() {
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

// ---------------------------------------------------------------------------------------------
// System

function Health({ name, check, detail }: { name: string; check: Check; detail?: string }) {
  return (
    <li className={`health ${check.ok ? 'ok' : 'bad'}`}>
      <span className="health-dot" aria-hidden="true" />
      <span className="health-name">{name}</span>
      <span className="health-state">{check.ok ? 'OK' : 'Down'}</span>
      <span className="muted small">
        {[
          detail,
          check.latencyMs !== null ? `${Math.round(check.latencyMs)} ms` : null,
          check.error,
        ]
          .filter(Boolean)
          .join(' · ')}
      </span>
    </li>
  );
}

function SystemTab() {
  const system = useAsync((signal) => api.system(signal), []);
  const { reload } = system;
  useEffect(() => {
    const timer = setInterval(reload, 10_000);
    return () => clearInterval(timer);
  }, [reload]);
  const data = system.data;
  return (
    <div className="stack">
      {system.error ? <ErrorMessage error={system.error} onRetry={reload} /> : null}
      {!data && system.loading ? <Loading label="Checking every service…" /> : null}
      {data ? (
        <>
          <section className="card" aria-labelledby="health-heading">
            <div className="section-head">
              <h2 id="health-heading">Services</h2>
              <button type="button" className="button small ghost" onClick={reload}>
                Refresh
              </button>
            </div>
            <ul className="health-list" data-testid="health">
              <Health
                name="API"
                check={{ ok: true, latencyMs: null, error: null }}
                detail={`v${data.versions.api}`}
              />
              <Health name="Database" check={data.health.db} detail={data.health.db.dialect} />
              <Health name="Message bus" check={data.health.bus} detail={data.health.bus.kind} />
              <Health name="Stream server" check={data.health.stream} />
              <Health name="Scheduler" check={data.health.scheduler} />
              {data.redis.used ? (
                <Health
                  name="Redis"
                  check={{
                    ok: !!data.redis.ok,
                    latencyMs: data.redis.latencyMs,
                    error: data.redis.error,
                  }}
                />
              ) : null}
            </ul>
          </section>
          <section className="card" aria-labelledby="api-heading">
            <h2 id="api-heading">API process</h2>
            <dl className="stats">
              <div>
                <dt>Uptime</dt>
                <dd>{formatLongDuration(data.uptime.api)}</dd>
              </div>
              <div>
                <dt>Memory (RSS)</dt>
                <dd>{formatBytes(data.memory.rss)}</dd>
              </div>
              <div>
                <dt>Heap</dt>
                <dd>
                  {formatBytes(data.memory.heapUsed)} / {formatBytes(data.memory.heapTotal)}
                </dd>
              </div>
              <div>
                <dt>Node</dt>
                <dd>{data.versions.node}</dd>
              </div>
              <div>
                <dt>Sessions</dt>
                <dd>{data.sessions.store}</dd>
              </div>
              <div>
                <dt>Live clients</dt>
                <dd>{data.sse.clients}</dd>
              </div>
              <div>
                <dt>Library</dt>
                <dd>{plural(data.library.ok, 'track')}</dd>
              </div>
              <div>
                <dt>Database</dt>
                <dd>
                  {data.db.dialect} {data.db.ok ? '' : '(down)'}
                </dd>
              </div>
            </dl>
          </section>
        </>
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Listeners

function ListenersTab() {
  const samples = useLive((s) => s.listenerSeries);
  const listeners = useLive((s) => s.listeners);
  const now = useNow(5000);
  const [windowMs, setWindowMs] = useState(10 * 60 * 1000);
  const id = useId();
  return (
    <section className="card" aria-labelledby="listeners-heading">
      <div className="section-head">
        <h2 id="listeners-heading">
          Listeners{' '}
          {listeners ? <span className="muted small">({listeners.total} now)</span> : null}
        </h2>
        <div className="field compact inline">
          <label htmlFor={id}>Window</label>
          <select id={id} value={windowMs} onChange={(e) => setWindowMs(Number(e.target.value))}>
            <option value={5 * 60 * 1000}>5 minutes</option>
            <option value={10 * 60 * 1000}>10 minutes</option>
            <option value={30 * 60 * 1000}>30 minutes</option>
            <option value={60 * 60 * 1000}>1 hour</option>
          </select>
        </div>
      </div>
      <ListenersChart samples={samples} now={now} windowMs={windowMs} />
      {listeners ? (
        <table className="table compact-table" aria-label="Listeners per mount">
          <thead>
            <tr>
              <th scope="col">Mount</th>
              <th scope="col" className="num">
                Now
              </th>
              <th scope="col" className="num">
                Peak
              </th>
            </tr>
          </thead>
          <tbody>
            {listeners.mounts.map((mount) => (
              <tr key={mount.mount}>
                <td>
                  <code>{mount.mount}</code>
                </td>
                <td className="num">{mount.listeners}</td>
                <td className="num">{mount.peak}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="muted small">
        The chart follows the live counts from the stream server while this page is open.
      </p>
    </section>
  );
}

export default function AdminPage({ tab }: { tab: string }) {
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  useTitle(`Admin: ${current.label}`);
  return (
    <section className="page" aria-labelledby="admin-heading">
      <div className="page-head">
        <h1 id="admin-heading">Admin</h1>
      </div>
      <nav className="tabs" aria-label="Admin sections">
        {TABS.map((t) => (
          <Link
            key={t.id}
            to={`/admin/${t.id}`}
            aria-current={t.id === current.id ? 'page' : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {current.id === 'users' ? <UsersTab /> : null}
      {current.id === 'library' ? <LibraryTab /> : null}
      {current.id === 'system' ? <SystemTab /> : null}
      {current.id === 'listeners' ? <ListenersTab /> : null}
    </section>
  );
}
