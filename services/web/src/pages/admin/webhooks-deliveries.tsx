import { useEffect } from 'react';
import { api } from '../../api/client.ts';
import type { Webhook, WebhookDelivery } from '../../api/types.ts';
import { Empty, ErrorMessage, Loading } from '../../components/status.tsx';
import { formatAgo, formatTime } from '../../format.ts';
import { useAsync } from '../../hooks/use-async.ts';

/** How often the list is read again while it is open: retries change it on their own. */
const REFRESH_MS = 5000;

function outcome(delivery: WebhookDelivery): string {
  if (delivery.statusCode !== null) return String(delivery.statusCode);
  return delivery.error ?? '—';
}

/** A webhook's latest deliveries: status, HTTP code, latency, attempts and the next retry. */
export function WebhookDeliveries({ webhook, version }: { webhook: Webhook; version: number }) {
  const deliveries = useAsync(
    (signal) => api.webhookDeliveries(webhook.id, signal),
    [webhook.id, version],
  );
  const { reload } = deliveries;
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  return (
    <section className="card" aria-labelledby="deliveries-heading">
      <div className="section-head">
        <h2 id="deliveries-heading">Deliveries of {webhook.name}</h2>
        <button type="button" className="button small ghost" onClick={reload}>
          Refresh
        </button>
      </div>
      {deliveries.error ? <ErrorMessage error={deliveries.error} onRetry={reload} /> : null}
      {deliveries.loading && !deliveries.data ? <Loading inline /> : null}
      {deliveries.data && deliveries.data.items.length === 0 ? (
        <Empty>Nothing sent yet.</Empty>
      ) : null}
      {deliveries.data && deliveries.data.items.length > 0 ? (
        <div className="table-wrap">
          <table className="table" aria-label={`Deliveries of ${webhook.name}`}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Answer</th>
                <th scope="col">Latency</th>
                <th scope="col">Attempts</th>
                <th scope="col">Next retry</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.items.map((delivery) => (
                <tr key={delivery.id} data-status={delivery.status}>
                  <td title={delivery.createdAt}>{formatTime(delivery.createdAt, true)}</td>
                  <td>
                    <code>{delivery.event}</code>
                  </td>
                  <td>{delivery.status}</td>
                  <td className="muted">{outcome(delivery)}</td>
                  <td>{delivery.latencyMs === null ? '—' : `${delivery.latencyMs} ms`}</td>
                  <td>{delivery.attempts}</td>
                  <td className="muted">
                    {delivery.nextAttemptAt ? formatAgo(delivery.nextAttemptAt) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
