import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import type { Webhook, WebhookEventName, WebhookFormat } from '../../api/types.ts';
import { FormError } from '../../components/status.tsx';
import { useSubmit } from '../../hooks/use-submit.ts';

/** Every event a webhook can choose, in the api's order, with what it means. */
export const WEBHOOK_EVENTS: ReadonlyArray<{ name: WebhookEventName; label: string }> = [
  { name: 'song.changed', label: 'Song changed' },
  { name: 'live.connected', label: 'A DJ went live' },
  { name: 'live.disconnected', label: 'A DJ left the air' },
  { name: 'playout.dead_air', label: 'Dead air skipped' },
  { name: 'station.offline', label: 'A mount lost its source' },
  { name: 'station.online', label: 'A mount is back' },
  { name: 'listeners.peak', label: 'Listener peak' },
];

export interface WebhookFields {
  name: string;
  url: string;
  events: WebhookEventName[];
  format: WebhookFormat;
}

/** Name, URL, events and format: the fields both "add" and "edit" show. */
export function WebhookForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: WebhookFields;
  submitLabel: string;
  onSubmit: (fields: WebhookFields) => Promise<void>;
  onCancel?: () => void;
}) {
  const [fields, setFields] = useState(initial);
  const { busy, error, setError, run } = useSubmit();
  const ids = { name: useId(), url: useId(), format: useId() };

  const toggle = (name: WebhookEventName, on: boolean) =>
    setFields((previous) => ({
      ...previous,
      events: WEBHOOK_EVENTS.map((e) => e.name).filter((each) =>
        each === name ? on : previous.events.includes(each),
      ),
    }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (fields.events.length === 0) {
      setError('Choose at least one event.');
      return;
    }
    return run(() => onSubmit({ ...fields, name: fields.name.trim(), url: fields.url.trim() }));
  };

  return (
    <form className="form-grid" onSubmit={submit}>
      <div className="field">
        <label htmlFor={ids.name}>Name</label>
        <input
          id={ids.name}
          value={fields.name}
          maxLength={100}
          required
          onChange={(e) => setFields({ ...fields, name: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.url}>URL</label>
        <input
          id={ids.url}
          type="url"
          value={fields.url}
          placeholder="https://example.com/hooks/radio"
          required
          onChange={(e) => setFields({ ...fields, url: e.target.value })}
        />
      </div>
      <fieldset className="field-set">
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event.name} className="checkbox">
            <input
              type="checkbox"
              checked={fields.events.includes(event.name)}
              onChange={(e) => toggle(event.name, e.target.checked)}
            />{' '}
            {event.label} <code className="muted small">{event.name}</code>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={ids.format}>Format</label>
        <select
          id={ids.format}
          value={fields.format}
          onChange={(e) => setFields({ ...fields, format: e.target.value as WebhookFormat })}
        >
          <option value="generic">Generic JSON</option>
          <option value="discord">Discord</option>
        </select>
      </div>
      <FormError error={error} />
      <div className="dialog-actions">
        {onCancel ? (
          <button type="button" className="button ghost" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="button primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/** Adds a webhook; the secret it gets is handed to `onSecret` (shown once). */
export function CreateWebhook({
  onCreated,
}: {
  onCreated: (webhook: Webhook, secret: string) => void;
}) {
  const [generation, setGeneration] = useState(0);
  return (
    <section className="card" aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">New webhook</h2>
      <WebhookForm
        key={generation}
        initial={{ name: '', url: '', events: ['song.changed'], format: 'generic' }}
        submitLabel="Add webhook"
        onSubmit={async (fields) => {
          const created = await api.createWebhook(fields);
          setGeneration((n) => n + 1);
          onCreated(created, created.secret ?? '');
        }}
      />
    </section>
  );
}
