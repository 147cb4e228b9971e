import { useState } from 'react';
import { api } from '../../api/client.ts';
import { describeError } from '../../api/errors.ts';
import type { Webhook } from '../../api/types.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { Empty, ErrorMessage, Loading } from '../../components/status.tsx';
import { useAsync } from '../../hooks/use-async.ts';
import { toast } from '../../hooks/use-toast.ts';
import { WebhookDeliveries } from './webhooks-deliveries.tsx';
import { CreateWebhook, WebhookForm } from './webhooks-form.tsx';

/** The secret, shown once right after it was made: the api never shows it again. */
function SecretDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  return (
    <Dialog open={secret !== null} title="The webhook's secret" onClose={onClose}>
      <p>
        Copy it now: it signs every delivery (<code>X-Radio-Signature</code>) and is not shown
        again.
      </p>
      <input
        className="secret"
        readOnly
        aria-label="Webhook secret"
        value={secret ?? ''}
        onFocus={(e) => e.target.select()}
      />
      <div className="dialog-actions">
        <button type="button" className="button primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

/** What a receiver gets, in short; the README has the whole of it. */
function Signing() {
  return (
    <section className="card" aria-labelledby="signing-heading">
      <h2 id="signing-heading">What a receiver gets</h2>
      <p>
        A <code>POST</code> with <code>{'{event, timestamp, data}'}</code> (or a Discord message),
        and the headers <code>X-Radio-Event</code>, <code>X-Radio-Timestamp</code> and{' '}
        <code>X-Radio-Signature: sha256=…</code>: the HMAC-SHA256 of <code>timestamp.body</code>{' '}
        with the webhook's secret.
      </p>
      <p className="muted">
        Failed deliveries are retried with growing pauses for 24 hours. Addresses of the station's
        own services (loopback, link-local, the stream server, the compose services) are refused.
      </p>
    </section>
  );
}

function EditWebhook({
  webhook,
  onSaved,
  onSecret,
  onClose,
}: {
  webhook: Webhook | null;
  onSaved: (webhook: Webhook) => void;
  onSecret: (secret: string) => void;
  onClose: () => void;
}) {
  const rotate = async () => {
    if (!webhook) return;
    try {
      const updated = await api.updateWebhook(webhook.id, { rotateSecret: true });
      onSaved(updated);
      onClose();
      if (updated.secret) onSecret(updated.secret);
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };
  return (
    <Dialog open={webhook !== null} title={`Edit ${webhook?.name ?? ''}`} onClose={onClose}>
      {webhook ? (
        <>
          <WebhookForm
            initial={webhook}
            submitLabel="Save"
            onCancel={onClose}
            onSubmit={async (fields) => {
              onSaved(await api.updateWebhook(webhook.id, fields));
              toast(`Saved ${fields.name}.`);
              onClose();
            }}
          />
          <button type="button" className="button small ghost" onClick={rotate}>
            Generate a new secret
          </button>
        </>
      ) : null}
    </Dialog>
  );
}

export function WebhooksTab() {
  const webhooks = useAsync((signal) => api.webhooks(signal), []);
  const [selected, setSelected] = useState<number | null>(null);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  // Bumped after a test send, so the open deliveries list reads the new one at once.
  const [sent, setSent] = useState(0);
  const items = webhooks.data?.items ?? [];
  const shown = items.find((w) => w.id === selected) ?? null;

  const replace = (updated: Webhook) =>
    webhooks.setData((previous) => ({
      items: (previous?.items ?? []).map((w) => (w.id === updated.id ? updated : w)),
    }));

  const setEnabled = async (webhook: Webhook, enabled: boolean) => {
    try {
      replace(await api.updateWebhook(webhook.id, { enabled }));
      toast(enabled ? `Enabled ${webhook.name}.` : `Disabled ${webhook.name}.`);
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  const test = async (webhook: Webhook) => {
    try {
      const delivery = await api.testWebhook(webhook.id);
      setSelected(webhook.id);
      setSent((n) => n + 1);
      const answer = delivery.statusCode ?? delivery.error ?? 'no answer';
      if (delivery.status === 'delivered') toast(`Test delivered to ${webhook.name} (${answer}).`);
      else toast(`Test to ${webhook.name} failed: ${answer}.`, 'error');
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  const remove = async (webhook: Webhook) => {
    try {
      await api.deleteWebhook(webhook.id);
      if (selected === webhook.id) setSelected(null);
      toast(`Deleted ${webhook.name}.`);
      webhooks.reload();
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  return (
    <>
      <div className="stack">
        <section className="card" aria-labelledby="webhooks-heading">
          <h2 id="webhooks-heading">Webhooks</h2>
          {webhooks.error ? (
            <ErrorMessage error={webhooks.error} onRetry={webhooks.reload} />
          ) : null}
          {webhooks.loading && !webhooks.data ? <Loading inline /> : null}
          {webhooks.data && items.length === 0 ? <Empty>No webhook yet.</Empty> : null}
          {items.length > 0 ? (
            <div className="table-wrap">
              <table className="table" aria-label="Webhooks">
                <thead>
                  <tr>
                    <th scope="col">Webhook</th>
                    <th scope="col">Events</th>
                    <th scope="col">Enabled</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((webhook) => (
                    <tr key={webhook.id} aria-selected={webhook.id === selected}>
                      <td>
                        <span className="cell-title">{webhook.name}</span>
                        <div className="muted small">
                          {webhook.url} · {webhook.format}
                        </div>
                      </td>
                      <td className="small">{webhook.events.join(', ')}</td>
                      <td>
                        <label className="switch">
                          <input
                            type="checkbox"
                            role="switch"
                            checked={webhook.enabled}
                            aria-checked={webhook.enabled}
                            aria-label={`${webhook.name} enabled`}
                            onChange={(e) => setEnabled(webhook, e.target.checked)}
                          />
                          <span aria-hidden="true">{webhook.enabled ? 'On' : 'Off'}</span>
                        </label>
                      </td>
                      <td>
                        <div className="row-actions">
                          <button
                            type="button"
                            className="button small"
                            onClick={() => test(webhook)}
                            aria-label={`Send a test to ${webhook.name}`}
                          >
                            Send test
                          </button>
                          <button
                            type="button"
                            className="button small ghost"
                            onClick={() => setSelected(webhook.id)}
                            aria-label={`Deliveries of ${webhook.name}`}
                          >
                            Deliveries
                          </button>
                          <button
                            type="button"
                            className="button small ghost"
                            onClick={() => setEditing(webhook)}
                            aria-label={`Edit ${webhook.name}`}
                          >
                            Edit
                          </button>
                          <button
                            type="button"
                            className="button small ghost danger"
                            onClick={() => setDeleting(webhook)}
                            aria-label={`Delete ${webhook.name}`}
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
        </section>
        {shown ? <WebhookDeliveries webhook={shown} version={sent} /> : null}
        <div className="split even">
          <CreateWebhook
            onCreated={(webhook, newSecret) => {
              toast(`Added ${webhook.name}.`);
              webhooks.reload();
              setSelected(webhook.id);
              setSecret(newSecret);
            }}
          />
          <Signing />
        </div>
      </div>
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <EditWebhook
        webhook={editing}
        onSaved={replace}
        onSecret={setSecret}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? ''}?`}
        message="The webhook and its deliveries will be gone; queued deliveries are not sent."
        confirmLabel="Delete webhook"
        danger
        onConfirm={() => {
          if (deleting) void remove(deleting);
        }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
