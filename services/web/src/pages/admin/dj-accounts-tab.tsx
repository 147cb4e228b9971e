import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import { describeError } from '../../api/errors.ts';
import type { DjAccount, DjAccountWithPassword } from '../../api/types.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { Empty, ErrorMessage, FormError, Loading } from '../../components/status.tsx';
import { useAsync } from '../../hooks/use-async.ts';
import { useSubmit } from '../../hooks/use-submit.ts';
import { toast } from '../../hooks/use-toast.ts';
import { LiveNow } from '../live/live-now.tsx';
import { PasswordDialog } from '../live/password-dialog.tsx';

/** Gives broadcast credentials to a DJ (or admin) that has none yet. */
function CreateDjAccount({
  taken,
  onCreated,
}: {
  taken: ReadonlySet<number>;
  onCreated: (account: DjAccountWithPassword) => void;
}) {
  const users = useAsync(async (signal) => {
    const [djs, admins] = await Promise.all([
      api.users({ role: 'dj', limit: 200 }, signal),
      api.users({ role: 'admin', limit: 200 }, signal),
    ]);
    return [...djs.items, ...admins.items];
  }, []);
  const [userId, setUserId] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [recordShows, setRecordShows] = useState(false);
  const { busy, error, run } = useSubmit();
  const ids = { user: useId(), name: useId(), record: useId() };
  const choices = (users.data ?? []).filter((user) => !taken.has(user.id));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const account = await api.createDjAccount({
        userId: Number(userId),
        displayName: displayName.trim() || undefined,
        recordShows,
      });
      setUserId('');
      setDisplayName('');
      setRecordShows(false);
      onCreated(account);
    });
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="new-dj-heading">
      <h2 id="new-dj-heading">Give broadcast credentials</h2>
      <p className="muted small">
        For a user with the dj role (give it on the Users tab first). The broadcast password is
        generated and shown once.
      </p>
      <div className="field">
        <label htmlFor={ids.user}>DJ</label>
        <select id={ids.user} value={userId} onChange={(e) => setUserId(e.target.value)} required>
          <option value="">Choose a DJ…</option>
          {choices.map((user) => (
            <option key={user.id} value={user.id}>
              {user.username} ({user.role})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.name}>Display name (on air)</label>
        <input
          id={ids.name}
          value={displayName}
          maxLength={100}
          placeholder="the user name"
          onChange={(e) => setDisplayName(e.target.value)}
        />
      </div>
      <label className="checkbox" htmlFor={ids.record}>
        <input
          id={ids.record}
          type="checkbox"
          checked={recordShows}
          onChange={(e) => setRecordShows(e.target.checked)}
        />{' '}
        Record this DJ's shows
      </label>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy || !userId}>
        Create credentials
      </button>
    </form>
  );
}

function Toggle({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        aria-checked={checked}
        aria-label={label}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span aria-hidden="true">{checked ? 'On' : 'Off'}</span>
    </label>
  );
}

/** DJs' broadcast credentials: who may go live, under which name, recorded or not. */
export function DjAccountsTab() {
  const accounts = useAsync((signal) => api.djAccounts(signal), []);
  const [shown, setShown] = useState<DjAccountWithPassword | null>(null);
  const [removing, setRemoving] = useState<DjAccount | null>(null);
  const items = accounts.data?.items ?? [];

  const change = async (account: DjAccount, changes: Parameters<typeof api.updateDjAccount>[1]) => {
    try {
      const updated = await api.updateDjAccount(account.userId, changes);
      accounts.setData((previous) => ({
        items: (previous?.items ?? []).map((a) => (a.userId === updated.userId ? updated : a)),
      }));
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };
  const regenerate = async (account: DjAccount) => {
    try {
      setShown(await api.regenerateDjPassword(account.userId));
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };
  const remove = async (account: DjAccount) => {
    try {
      await api.deleteDjAccount(account.userId);
      toast(`Removed the broadcast credentials of ${account.displayName}.`);
      accounts.reload();
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  return (
    <div className="stack">
      <LiveNow />
      <section className="card" aria-labelledby="dj-accounts-heading">
        <h2 id="dj-accounts-heading">DJ accounts</h2>
        {accounts.error ? <ErrorMessage error={accounts.error} onRetry={accounts.reload} /> : null}
        {accounts.loading && !accounts.data ? <Loading inline /> : null}
        {accounts.data && items.length === 0 ? (
          <Empty>No DJ has broadcast credentials yet.</Empty>
        ) : null}
        {items.length > 0 ? (
          <div className="table-wrap">
            <table className="table" aria-label="DJ accounts">
              <thead>
                <tr>
                  <th scope="col">DJ</th>
                  <th scope="col">Broadcast user</th>
                  <th scope="col">Enabled</th>
                  <th scope="col">Record shows</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((account) => (
                  <tr key={account.userId}>
                    <td>
                      <span className="cell-title">{account.displayName}</span>
                      <div className="muted small">
                        {account.username} · {account.role}
                      </div>
                    </td>
                    <td>
                      <code>{account.broadcastUsername}</code>
                    </td>
                    <td>
                      <Toggle
                        label={`${account.displayName} enabled`}
                        checked={account.enabled}
                        onChange={(enabled) => change(account, { enabled })}
                      />
                    </td>
                    <td>
                      <Toggle
                        label={`Record ${account.displayName}'s shows`}
                        checked={account.recordShows}
                        onChange={(recordShows) => change(account, { recordShows })}
                      />
                    </td>
                    <td>
                      <div className="row-actions">
                        <button
                          type="button"
                          className="button small"
                          onClick={() => regenerate(account)}
                        >
                          New password
                        </button>
                        <button
                          type="button"
                          className="button small ghost danger"
                          onClick={() => setRemoving(account)}
                          aria-label={`Remove ${account.displayName}'s credentials`}
                        >
                          Remove
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <CreateDjAccount
        taken={new Set(items.map((account) => account.userId))}
        onCreated={(account) => {
          toast(`${account.displayName} can go live now.`);
          accounts.reload();
          setShown(account);
        }}
      />
      <PasswordDialog
        password={shown?.password ?? null}
        username={shown?.broadcastUsername ?? ''}
        onClose={() => setShown(null)}
      />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.displayName ?? ''}'s credentials?`}
        message="The DJ can no longer connect a source client or go live from the browser."
        confirmLabel="Remove"
        danger
        onConfirm={() => removing && remove(removing)}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}
