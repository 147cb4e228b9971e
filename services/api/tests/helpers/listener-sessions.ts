import type { DbHandle, ListenerClient } from '@radio/db';

/** A finished listener session as the reports read it; times in epoch ms. */
export interface SessionRow {
  mount: string;
  start: number;
  end: number;
  country: string | null;
  client: ListenerClient;
  /** As stored under LISTENER_PRIVACY: a hash, an address, or null (privacy none). */
  listener: string | null;
  userAgent?: string;
  clientName?: string;
}

let keys = 0;

/** Inserts sessions straight into listener_sessions (the api's ingestion is tested apart). */
export async function insertSessions(db: DbHandle, rows: readonly SessionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.db
    .insertInto('listener_sessions')
    .values(
      rows.map((row) => ({
        session_key: `test-${process.pid}-${++keys}`,
        mount: row.mount,
        transport: 'icecast' as const,
        node: 'test',
        started_ms: row.start,
        ended_ms: row.end,
        duration_ms: row.end - row.start,
        bytes: Math.round(((row.end - row.start) / 1000) * 16_000),
        user_agent: row.userAgent ?? null,
        client: row.client,
        client_name: row.clientName ?? null,
        country: row.country,
        listener: row.listener,
      })),
    )
    .execute();
}

export interface PlayRow {
  trackId?: number | null;
  title: string;
  artist: string | null;
  start: number;
  end: number | null;
  jingle?: boolean;
}

/** Inserts play_history rows (ISO times, as the scheduler writes them). */
export async function insertPlays(db: DbHandle, rows: readonly PlayRow[]): Promise<void> {
  await db.db
    .insertInto('play_history')
    .values(
      rows.map((row) => ({
        track_id: row.trackId ?? null,
        title: row.title,
        artist: row.artist,
        started_at: new Date(row.start).toISOString(),
        ended_at: row.end === null ? null : new Date(row.end).toISOString(),
        source: 'rotation' as const,
        jingle: row.jingle ? 1 : 0,
      })),
    )
    .execute();
}
