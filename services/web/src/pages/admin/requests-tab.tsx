import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import { describeError } from '../../api/errors.ts';
import type { RequestSettings } from '../../api/types.ts';
import { ErrorMessage, FormError, Loading } from '../../components/status.tsx';
import { useAsync } from '../../hooks/use-async.ts';
import { useLive } from '../../hooks/use-live.ts';
import { useSubmit } from '../../hooks/use-submit.ts';
import { toast } from '../../hooks/use-toast.ts';
import { clockOf, entryLine, requestStatusText, requestView } from '../../programming.ts';

const LIMITS: ReadonlyArray<{
  key: Exclude<keyof RequestSettings, 'enabled'>;
  label: string;
  min: number;
  max: number;
}> = [
  {
    key: 'minDelayMinutes',
    label: 'Minimum delay before a request plays (minutes)',
    min: 0,
    max: 1440,
  },
  { key: 'maxPendingPerUser', label: 'Pending requests per listener', min: 1, max: 100 },
  { key: 'maxPerHourPerUser', label: 'Requests per listener per hour', min: 1, max: 100 },
  {
    key: 'thresholdMinutes',
    label: 'Not played or requested within (minutes)',
    min: 0,
    max: 10_080,
  },
];

function SettingsForm({ initial }: { initial: RequestSettings }) {
  const [settings, setSettings] = useState(initial);
  const { busy, error, run } = useSubmit();
  const ids = useId();

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      setSettings(await api.saveRequestSettings(settings));
      toast('Request settings saved.');
    });
  };

  return (
    <form className="card form-grid" onSubmit={save} aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`}>Request settings</h2>
      <label className="switch" htmlFor={`${ids}-enabled`}>
        <input
          id={`${ids}-enabled`}
          type="checkbox"
          role="switch"
          checked={settings.enabled}
          aria-checked={settings.enabled}
          onChange={(e) => setSettings({ ...settings, enabled: e.target.checked })}
        />
        <span>Listeners may request tracks</span>
      </label>
      {LIMITS.map((limit) => (
        <div className="field" key={limit.key}>
          <label htmlFor={`${ids}-${limit.key}`}>{limit.label}</label>
          <input
            id={`${ids}-${limit.key}`}
            type="number"
            min={limit.min}
            max={limit.max}
            step={1}
            required
            value={settings[limit.key]}
            onChange={(e) => setSettings({ ...settings, [limit.key]: Number(e.target.value) })}
          />
        </div>
      ))}
      <FormError error={error} />
      <div className="button-row">
        <button type="submit" className="button primary" disabled={busy}>
          Save settings
        </button>
      </div>
    </form>
  );
}

function PendingRequests() {
  const updates = useLive((s) => s.requests);
  const pending = useAsync(
    (signal) => api.requests({ status: 'pending' }, signal),
    [Object.keys(updates).length],
  );

  const remove = async (id: number) => {
    try {
      await api.removeRequest(id);
      toast('Request removed.');
      pending.reload();
    } catch (error) {
      toast(describeError(error), 'error');
    }
  };

  const rows = (pending.data?.requests ?? []).filter(
    (request) => (updates[request.id]?.status ?? 'pending') === 'pending',
  );
  return (
    <section className="card" aria-labelledby="pending-requests-heading">
      <h2 id="pending-requests-heading">Pending requests</h2>
      {pending.error ? <ErrorMessage error={pending.error} onRetry={pending.reload} /> : null}
      {pending.loading && !pending.data ? <Loading inline /> : null}
      {pending.data && rows.length === 0 ? <p className="muted">No requests wait.</p> : null}
      {rows.length > 0 ? (
        <table className="table" data-testid="pending-requests">
          <thead>
            <tr>
              <th scope="col">Track</th>
              <th scope="col">By</th>
              <th scope="col">Requested</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((request) => (
              <tr key={request.id}>
                <td>{entryLine(request)}</td>
                <td>{request.user.name}</td>
                <td className="num">{clockOf(Date.parse(request.requestedAt))}</td>
                <td>{requestStatusText(requestView(request, updates[request.id]))}</td>
                <td className="actions-col">
                  <button
                    type="button"
                    className="button small danger ghost"
                    aria-label={`Remove the request for ${request.track.title} by ${request.user.name}`}
                    onClick={() => remove(request.id)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

/** Listener requests: whether and how often they are taken, and the ones that wait. */
export function RequestsTab() {
  const settings = useAsync((signal) => api.requestSettings(signal), []);
  return (
    <div className="stack">
      {settings.error ? <ErrorMessage error={settings.error} onRetry={settings.reload} /> : null}
      {settings.data ? <SettingsForm initial={settings.data} /> : <Loading inline />}
      <PendingRequests />
    </div>
  );
}
