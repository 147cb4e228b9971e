import type { Track, TrackStatus, TrackUpdate } from '@radio/db';
import { ANALYSIS_PENDING, nowIso, toFlag } from '@radio/db';
import type { Measurement } from '../analysis/log-parser.ts';
import type { TrackTags } from '../library/probe.ts';
import type { Db } from './db.ts';

/** The size and mtime a rescan compares to skip unchanged files. */
export interface TrackStamp {
  readonly id: number;
  readonly path: string;
  readonly size: number;
  readonly mtime: number;
  readonly status: TrackStatus;
}

export interface FileFacts {
  readonly size: number;
  readonly mtime: number;
}

/** How far the analysis is through the playable tracks. */
export interface AnalysisCounts {
  readonly pending: number;
  readonly done: number;
  readonly failed: number;
}

/** Every query the scheduler makes on `tracks`; nothing else in the service writes SQL for it. */
export class TrackRepository {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async stamps(): Promise<TrackStamp[]> {
    const rows = await this.#db
      .selectFrom('tracks')
      .select(['id', 'path', 'size', 'mtime', 'status'])
      .execute();
    return rows.map((row) => ({ ...row, size: Number(row.size), mtime: Number(row.mtime) }));
  }

  /** Whether any file is in the folder, playable or not (one row read, not the library). */
  async anyPresent(): Promise<boolean> {
    const row = await this.#db
      .selectFrom('tracks')
      .select('id')
      .where('status', '!=', 'missing')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async findByPath(path: string): Promise<Track | undefined> {
    return this.#db.selectFrom('tracks').selectAll().where('path', '=', path).executeTakeFirst();
  }

  async findById(id: number): Promise<Track | undefined> {
    return this.#db.selectFrom('tracks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async playable(): Promise<Track[]> {
    return this.#db
      .selectFrom('tracks')
      .selectAll()
      .where('status', '=', 'ok')
      .orderBy('id')
      .execute();
  }

  /**
   * A track that may be the same file under a new name: same size and mtime, and either known
   * missing or still ok because its unlink has not been handled yet (the caller checks that its
   * file is gone).
   */
  async findMovedCandidate(facts: FileFacts, newPath: string): Promise<Track | undefined> {
    return this.#db
      .selectFrom('tracks')
      .selectAll()
      .where('status', 'in', ['missing', 'ok'])
      .where('path', '!=', newPath)
      .where('size', '=', facts.size)
      .where('mtime', '=', facts.mtime)
      .orderBy('updated_at', 'desc')
      .executeTakeFirst();
  }

  /**
   * Inserts or updates the row of `path` as playable; returns the row. `contentChanged` (the
   * file's size or mtime differ from the row's) also clears its analysis; a renamed or
   * returning file keeps it.
   */
  async saveOk(
    path: string,
    facts: FileFacts,
    tags: TrackTags,
    contentChanged: boolean,
  ): Promise<Track> {
    const values = {
      title: tags.title,
      artist: tags.artist,
      album: tags.album,
      genre: tags.genre,
      isrc: tags.isrc,
      year: tags.year,
      track_no: tags.trackNo,
      duration: tags.duration,
      format: tags.format,
      bitrate: tags.bitrate,
      sample_rate: tags.sampleRate,
      channels: tags.channels,
      has_cover: toFlag(tags.hasCover),
      replay_gain: tags.replayGain,
      size: facts.size,
      mtime: facts.mtime,
      status: 'ok' as const,
      error: null,
      ...(contentChanged ? ANALYSIS_PENDING : {}),
    };
    return this.#db
      .insertInto('tracks')
      .values({ path, ...values })
      .onConflict((oc) => oc.column('path').doUpdateSet({ ...values, updated_at: nowIso() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Inserts or updates the row of `path` as invalid with the reason; returns the row. */
  async saveInvalid(
    path: string,
    facts: FileFacts,
    format: string,
    reason: string,
  ): Promise<Track> {
    const title = path.split('/').pop() ?? path;
    return this.#db
      .insertInto('tracks')
      .values({
        path,
        title,
        format,
        size: facts.size,
        mtime: facts.mtime,
        status: 'invalid',
        error: reason,
      })
      .onConflict((oc) =>
        oc.column('path').doUpdateSet({
          size: facts.size,
          mtime: facts.mtime,
          status: 'invalid',
          error: reason,
          updated_at: nowIso(),
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A file that failed to decode at play time is invalid from now on (until it changes). */
  async markInvalid(id: number, reason: string): Promise<void> {
    await this.#db
      .updateTable('tracks')
      .set({ status: 'invalid', error: reason, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  /** Marks the track missing if it still has `path` (a rename may have moved it on); false if not. */
  async markMissingAt(id: number, path: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('tracks')
      .set({ status: 'missing', error: 'file not found', updated_at: nowIso() })
      .where('id', '=', id)
      .where('path', '=', path)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async rename(id: number, path: string): Promise<Track> {
    return this.#db
      .updateTable('tracks')
      .set({ path, status: 'ok', error: null, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The playable tracks not analysed yet, oldest first. */
  async pendingAnalysis(): Promise<number[]> {
    const rows = await this.#db
      .selectFrom('tracks')
      .select('id')
      .where('status', '=', 'ok')
      .where('analysis_status', '=', 'pending')
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  }

  async analysisCounts(): Promise<AnalysisCounts> {
    const rows = await this.#db
      .selectFrom('tracks')
      .select(['analysis_status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('status', '=', 'ok')
      .groupBy('analysis_status')
      .execute();
    const count = (status: string) =>
      Number(rows.find((row) => row.analysis_status === status)?.count ?? 0);
    return { pending: count('pending'), done: count('done'), failed: count('failed') };
  }

  /**
   * Stores what the analysis measured, if the row still describes the file that was measured
   * (same size and mtime, still playable); returns the row, or undefined when it changed.
   */
  async saveAnalysis(
    id: number,
    facts: FileFacts,
    measured: Measurement,
  ): Promise<Track | undefined> {
    return this.#setAnalysis(id, facts, {
      analysis_status: 'done',
      loudness: measured.loudness,
      loudness_range: measured.loudnessRange,
      true_peak: measured.truePeak,
      cue_in: measured.cueIn,
      cue_out: measured.cueOut,
      fade_point: measured.fadePoint,
      analysis_error: null,
    });
  }

  /** Records why the file could not be measured (it still plays); same condition as above. */
  async saveAnalysisFailure(
    id: number,
    facts: FileFacts,
    reason: string,
  ): Promise<Track | undefined> {
    return this.#setAnalysis(id, facts, {
      ...ANALYSIS_PENDING,
      analysis_status: 'failed',
      analysis_error: reason,
    });
  }

  async #setAnalysis(
    id: number,
    facts: FileFacts,
    values: TrackUpdate,
  ): Promise<Track | undefined> {
    return this.#db
      .updateTable('tracks')
      .set({ ...values, analyzed_at: nowIso() })
      .where('id', '=', id)
      .where('status', '=', 'ok')
      .where('size', '=', facts.size)
      .where('mtime', '=', facts.mtime)
      .returningAll()
      .executeTakeFirst();
  }
}
