import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import { describeError } from '../../api/errors.ts';
import type { Role, User } from '../../api/types.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { Empty, ErrorMessage, FormError, Loading } from '../../components/status.tsx';
import { formatAgo } from '../../format.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { useDebounced } from '../../hooks/use-debounced.ts';
import { useSession } from '../../hooks/use-session.ts';
import { useSubmit } from '../../hooks/use-submit.ts';
import { toast } from '../../hooks/use-toast.ts';
import { session } from '../../session.ts';

const ROLES: Role[] = ['listener', 'dj', 'admin'];

function RoleOptions() {
  return ROLES.map((r) => (
    <option key={r} value={r}>
      {r}
    </option>
  ));
}

function CreateUser({ onCreated }: { onCreated: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('listener');
  const { busy, error, run } = useSubmit();
  const ids = { user: useId(), pass: useId(), role: useId() };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const user = await api.createUser({ username: username.trim(), password, role });
      toast(`Created ${user.username} (${user.role}).`);
      setUsername('');
      setPassword('');
      setRole('listener');
      onCreated();
    });
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
          <RoleOptions />
        </select>
      </div>
      <FormError error={error} />
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
        <FormError error={error} />
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

export function UsersTab() {
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
                        <RoleOptions />
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
        <Pagination of={users.data} onPage={setPage} label="Account pages" />
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
