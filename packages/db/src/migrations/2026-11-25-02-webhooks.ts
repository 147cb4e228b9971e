import type { Kysely } from 'kysely';
import { flag, idColumn, oneOf, timestampNow } from './portable.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'integer', idColumn(db))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // A JSON list of event names; small, always read whole, never queried by element.
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('format', 'text', oneOf('format', ['generic', 'discord']))
    .addColumn('enabled', 'integer', flag('enabled', 1))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', timestampNow(db))
    .addColumn('updated_at', 'text', timestampNow(db))
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'integer', idColumn(db))
    .addColumn('webhook_id', 'integer', (c) =>
      c.notNull().references('webhooks.id').onDelete('cascade'),
    )
    .addColumn('event', 'text', (c) => c.notNull())
    // Names one occurrence of an event: every api process follows the bus, and the unique
    // index below lets only the first of them queue it. Null for a test delivery.
    .addColumn('event_key', 'text')
    // The exact body sent, so every retry carries the same bytes and signature input.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', oneOf('status', ['pending', 'delivered', 'failed', 'retrying']))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Null once the delivery is settled (delivered or failed).
    .addColumn('next_attempt_at', 'text')
    // Set while one api process holds the delivery, so another leaves it alone until then.
    .addColumn('claimed_until', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('latency_ms', 'integer')
    .addColumn('created_at', 'text', timestampNow(db))
    .addColumn('delivered_at', 'text')
    .execute();
  // The worker's question: what is due now?
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_event_key_idx')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'event_key'])
    .unique()
    .execute();
  // The page's question (and the pruning's): this webhook's latest deliveries.
  await db.schema
    .createIndex('webhook_deliveries_webhook_idx')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
