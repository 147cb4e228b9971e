import type { Kysely } from 'kysely';
import { oneOf } from './portable.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time, not typed by the schema.
export async function up(db: Kysely<any>): Promise<void> {
  // What the background analysis measures once per file version (issue 14), and the
  // ReplayGain the file's tags carry (used until the analysis is done).
  const columns: Array<[string, 'double precision' | 'text']> = [
    ['replay_gain', 'double precision'],
    ['loudness', 'double precision'],
    ['loudness_range', 'double precision'],
    ['true_peak', 'double precision'],
    ['cue_in', 'double precision'],
    ['cue_out', 'double precision'],
    ['fade_point', 'double precision'],
    ['analysis_error', 'text'],
    ['analyzed_at', 'text'],
  ];
  for (const [name, type] of columns) {
    await db.schema.alterTable('tracks').addColumn(name, type).execute();
  }
  await db.schema
    .alterTable('tracks')
    .addColumn('analysis_status', 'text', (c) =>
      oneOf('analysis_status', ['pending', 'done', 'failed'])(c).defaultTo('pending'),
    )
    .execute();
  // The analysis worker asks for the next pending files.
  await db.schema
    .createIndex('tracks_analysis_status_idx')
    .on('tracks')
    .column('analysis_status')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tracks_analysis_status_idx').execute();
  for (const name of [
    'analysis_status',
    'analyzed_at',
    'analysis_error',
    'fade_point',
    'cue_out',
    'cue_in',
    'true_peak',
    'loudness_range',
    'loudness',
    'replay_gain',
  ]) {
    await db.schema.alterTable('tracks').dropColumn(name).execute();
  }
}
