import type { Kysely } from 'kysely';

interface AuditRow {
  user_id: number | null;
  action: string;
  target: string | null;
  details: string | null;
}

/**
 * Who uploaded the file now at each path, replaying the audit log: `track.upload` names the
 * path and the user, `track.move` carries a file (and so its uploader) to another path.
 */
function uploadersByPath(rows: readonly AuditRow[]): Map<string, number> {
  const uploaders = new Map<string, number>();
  for (const row of rows) {
    if (row.action === 'track.upload' && row.target !== null) {
      if (row.user_id === null) uploaders.delete(row.target);
      else uploaders.set(row.target, row.user_id);
      continue;
    }
    let move: { from?: unknown; to?: unknown };
    try {
      move = JSON.parse(row.details ?? '{}') as typeof move;
    } catch {
      continue;
    }
    if (typeof move.from !== 'string' || typeof move.to !== 'string') continue;
    const uploader = uploaders.get(move.from);
    uploaders.delete(move.from);
    if (uploader === undefined) uploaders.delete(move.to);
    else uploaders.set(move.to, uploader);
  }
  return uploaders;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  // Who uploaded a track: a DJ may delete its own uploads and nobody else's work. A plain id,
  // not a key: ids are never reused, so a deleted account's id stays nobody's, and SQLite can
  // drop a column only when no key names it.
  await db.schema.alterTable('tracks').addColumn('uploaded_by', 'integer').execute();
  // The api reads the latest upload of a path when a track is not indexed yet.
  await db.schema
    .createIndex('audit_log_action_target_idx')
    .on('audit_log')
    .columns(['action', 'target'])
    .execute();

  const rows = (await db
    .selectFrom('audit_log')
    .select(['user_id', 'action', 'target', 'details'])
    .where('action', 'in', ['track.upload', 'track.move'])
    .orderBy('id')
    .execute()) as AuditRow[];
  for (const [path, userId] of uploadersByPath(rows)) {
    await db.updateTable('tracks').set({ uploaded_by: userId }).where('path', '=', path).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_action_target_idx').execute();
  await db.schema.alterTable('tracks').dropColumn('uploaded_by').execute();
}
