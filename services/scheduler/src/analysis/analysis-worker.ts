import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Bus, LibraryAnalysis, Logger } from '@radio/core';
import { type Track, type TrackAnalysis, trackAnalysis } from '@radio/db';
import type { LibraryChange } from '../library/change-batch.ts';
import type { FileFacts, TrackRepository } from '../repositories/track-repository.ts';
import { type AnalyzeResult, analyzeFile, longerThan } from './analyzer.ts';
import { ThrottledSender } from './progress.ts';

/** What the worker needs of the library. */
export interface AnalysisLibrary {
  readonly root: string;
  onChange(listener: (change: LibraryChange) => void): () => void;
  applyAnalysis(id: number, analysis: TrackAnalysis): void;
}

export interface AnalysisWorkerOptions {
  library: AnalysisLibrary;
  tracks: TrackRepository;
  bus: Pick<Bus, 'publishState'>;
  ffmpegPath: string;
  logger: Logger;
  /** Files analysed at once (default 2). */
  concurrency?: number;
  /** Longer recordings are marked failed and play unmeasured (default 3 hours). */
  maxSeconds?: number;
  /** Progress is published at most this often while running (default 1000 ms). */
  progressMs?: number;
}

export const DEFAULT_MAX_SECONDS = 3 * 3600;

/**
 * The background loudness and cue analysis: every playable track whose analysis is pending,
 * measured once (see Measurement), a few at a time, each in a low-priority ffmpeg. It takes
 * what the database says is pending at start (so it resumes after a restart and never repeats
 * an unchanged file) and the new and changed files as the library reports them. Results go to
 * the row and to the track in memory; a file that cannot be measured is marked failed with the
 * reason and plays as it is. Nothing here waits on playout or makes the library wait.
 */
export class AnalysisWorker {
  readonly #options: AnalysisWorkerOptions;
  readonly #log: Logger;
  readonly #concurrency: number;
  readonly #maxSeconds: number;
  /** Track ids waiting, in order (a Set: one entry per id, O(1) to take the first). */
  readonly #queue = new Set<number>();
  /** The jobs running, by track id, with their library paths. */
  readonly #running = new Map<number, { path: string; done: Promise<void> }>();
  /** Ids queued again while their job ran: taken up when it ends. */
  readonly #again = new Set<number>();
  readonly #abort = new AbortController();
  readonly #progress: ThrottledSender;
  #unsubscribe: (() => void) | null = null;
  #stopped = false;
  #measured = 0;
  #audioSeconds = 0;
  #busyMs = 0;
  #busySince: number | null = null;

  constructor(options: AnalysisWorkerOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#concurrency = Math.max(1, Math.floor(options.concurrency ?? 2));
    this.#maxSeconds = options.maxSeconds ?? DEFAULT_MAX_SECONDS;
    this.#progress = new ThrottledSender(
      options.progressMs ?? 1000,
      () => this.#publish(),
      options.logger,
    );
  }

  /** Files ffmpeg measured (or tried to) since start: what "analyses none again" counts. */
  get analysedCount(): number {
    return this.#measured;
  }

  /** Takes the pending tracks and starts on them; never throws (a database error is logged). */
  async start(): Promise<void> {
    this.#unsubscribe = this.#options.library.onChange((change) => this.#onChange(change));
    try {
      for (const id of await this.#options.tracks.pendingAnalysis()) this.#queue.add(id);
    } catch (error) {
      this.#log.error({ err: error }, 'cannot read the tracks waiting for analysis');
    }
    this.#pump();
    if (this.#running.size === 0) this.#progress.now();
  }

  /** Stops the running analyses (their tracks stay pending for the next start). */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#unsubscribe?.();
    this.#queue.clear();
    this.#abort.abort();
    await Promise.all([...this.#running.values()].map((job) => job.done));
    await this.#progress.stop();
  }

  #onChange(change: LibraryChange): void {
    for (const id of change.removed) this.#queue.delete(id);
    for (const track of [...change.added, ...change.updated]) {
      if (track.analysis.status === 'pending') this.#queue.add(track.id);
    }
    this.#pump();
  }

  #pump(): void {
    while (!this.#stopped && this.#running.size < this.#concurrency) {
      const next = this.#queue.values().next();
      if (next.done) break;
      const id = next.value;
      this.#queue.delete(id);
      if (this.#running.has(id)) {
        this.#again.add(id);
        continue;
      }
      if (this.#busySince === null) this.#busySince = Date.now();
      const job = { path: '', done: Promise.resolve() };
      job.done = this.#job(id, (path) => {
        job.path = path;
      })
        .catch((error: unknown) => this.#log.error({ err: error, trackId: id }, 'analysis failed'))
        .finally(() => this.#finished(id));
      this.#running.set(id, job);
    }
    if (this.#running.size > 0) this.#progress.soon();
  }

  #finished(id: number): void {
    this.#running.delete(id);
    if (this.#stopped) return;
    if (this.#again.delete(id)) this.#queue.add(id);
    this.#pump();
    if (this.#running.size === 0 && this.#busySince !== null) {
      this.#busyMs += Date.now() - this.#busySince;
      this.#busySince = null;
      this.#progress.now();
    }
  }

  /** Measures one track, if it still waits and its file is still the one the row describes. */
  async #job(id: number, started: (path: string) => void): Promise<void> {
    const { tracks, library } = this.#options;
    const row = await tracks.findById(id);
    if (row?.status !== 'ok' || row.analysis_status !== 'pending') return;
    started(row.path);
    const file = join(library.root, row.path);
    const before = await facts(file);
    // Not the file the row knows: the library indexes it again and queues it then.
    if (!before || !sameFacts(before, row)) return;
    const result = await this.#measure(file, row);
    if (this.#stopped) return;
    const after = await facts(file);
    if (!after || !sameFacts(after, before)) {
      this.#log.info({ path: row.path, trackId: id }, 'file changed while analysed; queued again');
      this.#queue.add(id);
      return;
    }
    await this.#save(row, before, result);
  }

  async #measure(file: string, row: Track): Promise<AnalyzeResult> {
    // A tag that says the file is too long spares decoding it; a file whose tags lie is
    // stopped when its decoded audio passes the limit.
    if (row.duration !== null && Number(row.duration) > this.#maxSeconds) {
      return longerThan(this.#maxSeconds);
    }
    this.#measured += 1;
    return analyzeFile(file, {
      ffmpegPath: this.#options.ffmpegPath,
      logger: this.#log,
      maxSeconds: this.#maxSeconds,
      signal: this.#abort.signal,
    });
  }

  async #save(row: Track, measured: FileFacts, result: AnalyzeResult): Promise<void> {
    const { tracks, library } = this.#options;
    const context = { path: row.path, trackId: row.id };
    if (!result.ok && !result.fileFault) {
      this.#log.warn({ ...context, reason: result.reason }, 'analysis could not run; left pending');
      return;
    }
    const saved = result.ok
      ? await tracks.saveAnalysis(row.id, measured, result.measurement)
      : await tracks.saveAnalysisFailure(row.id, measured, result.reason);
    if (!saved) return; // the file changed meanwhile: the library queues it again
    library.applyAnalysis(row.id, trackAnalysis(saved));
    if (result.ok) {
      this.#audioSeconds += result.measurement.duration;
      const { loudness, truePeak, cueIn, cueOut, fadePoint } = result.measurement;
      this.#log.info(
        { ...context, loudness, truePeak, cueIn, cueOut, fadePoint },
        'track analysed',
      );
    } else {
      this.#log.info(
        { ...context, reason: result.reason },
        'track cannot be analysed; plays as is',
      );
    }
    this.#progress.soon();
  }

  async #publish(): Promise<void> {
    const counts = await this.#options.tracks.analysisCounts();
    const busyMs = this.#busyMs + (this.#busySince === null ? 0 : Date.now() - this.#busySince);
    const payload: LibraryAnalysis = {
      state: this.#running.size > 0 || this.#queue.size > 0 ? 'running' : 'idle',
      pending: counts.pending,
      analysed: counts.done,
      failed: counts.failed,
      current: [...this.#running.values()].flatMap((job) => (job.path ? [job.path] : [])),
      rate: this.#audioSeconds > 0 && busyMs > 0 ? this.#audioSeconds / (busyMs / 1000) : null,
    };
    await this.#options.bus.publishState('library.analysis', payload);
  }
}

async function facts(path: string): Promise<FileFacts | null> {
  try {
    const info = await stat(path);
    return { size: info.size, mtime: Math.floor(info.mtimeMs) };
  } catch {
    return null;
  }
}

function sameFacts(a: FileFacts, b: { size: number; mtime: number }): boolean {
  return a.size === Number(b.size) && a.mtime === Number(b.mtime);
}
