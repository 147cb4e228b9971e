import type { AuditEntry, DbHandle } from '@radio/db';

/** Who changed the library: uploads, tag edits, moves, deletes and restores. */
export interface AuditRecord {
  /** The acting user; null for the station itself (the trash's expiry, say). */
  user: { id: number; username: string } | null;
  /** `track.upload`, `track.tags`, `track.cover`, `track.move`, `track.delete`, `track.restore`, `trash.purge` … */
  action: string;
  /** What it acted on, usually a path relative to MUSIC_DIR. */
  target: string | null;
  /** Anything else worth reading later (old and new values, sizes); stored as JSON. */
  details?: Record<string, unknown> | undefined;
}

export class AuditRepository {
  readonly #handle: DbHandle;

  constructor(handle: DbHandle) {
    this.#handle = handle;
  }

  async record(entry: AuditRecord): Promise<void> {
    await this.#handle.db
      .insertInto('audit_log')
      .values({
        user_id: entry.user?.id ?? null,
        username: entry.user?.username ?? null,
        action: entry.action,
        target: entry.target,
        details: entry.details === undefined ? null : JSON.stringify(entry.details),
      })
      .execute();
  }

  /** Newest first; `action` narrows it to one action. */
  async list(
    offset: number,
    limit: number,
    action?: string,
  ): Promise<{ rows: AuditEntry[]; total: number }> {
    const db = this.#handle.db;
    let rows = db.selectFrom('audit_log');
    if (action !== undefined) rows = rows.where('action', '=', action);
    const [page, count] = await Promise.all([
      rows.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      rows.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: page, total: Number(count.n) };
  }
}
