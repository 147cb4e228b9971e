import { createWriteStream, mkdirSync, statfsSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { type FfmpegProcess, type Logger, spawnFfmpeg } from '@radio/core';
import { FFMPEG_PCM_ARGS } from '../pcm.ts';
import type { Db } from '../repositories/db.ts';
import type { LiveDj } from './dj-credentials.ts';

export interface LiveShowOptions {
  dj: LiveDj;
  db: Db;
  /** DATA_DIR/recordings; null: shows are not recorded here. */
  recordingsDir: string | null;
  ffmpegPath: string;
  logger: Logger;
  /** The station's listener count now (the peak starts from it). */
  listeners: number;
  /** The recording stopped on an error (a full disk): the show goes on. */
  onRecordingError(reason: string): void;
}

/** A recording is not started with less free space than this. */
const MIN_FREE_BYTES = 64 * 1024 * 1024;

function fileName(dj: LiveDj, startedAt: Date): string {
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  return `${stamp}-${dj.username.replace(/[^a-z0-9_-]/g, '_')}.mp3`;
}

/**
 * One DJ's time on air: a `live_shows` row from the moment it takes the air to the moment it
 * leaves, with the audience peak, and (for a DJ with record_shows) an MP3 of what went out,
 * written by its own ffmpeg. A recording that fails stops with its reason in the row; the
 * show never does.
 */
export class LiveShow {
  readonly #options: LiveShowOptions;
  readonly #log: Logger;
  readonly startedAt = new Date();
  #peak: number;
  #row: Promise<number | null>;
  #file: string | null = null;
  #encoder: FfmpegProcess | null = null;
  #out: WriteStream | null = null;
  #error: string | null = null;
  #ending: Promise<void> | null = null;

  constructor(options: LiveShowOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#peak = options.listeners;
    if (options.dj.recordShows && options.recordingsDir) {
      this.#file = fileName(options.dj, this.startedAt);
      this.#startRecording(options.recordingsDir, this.#file);
    }
    this.#row = options.db
      .insertInto('live_shows')
      .values({
        user_id: options.dj.id,
        dj_name: options.dj.name,
        started_at: this.startedAt.toISOString(),
        recording_file: this.#file,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then(
        (row) => row.id,
        (error: unknown) => {
          this.#log.warn({ err: error }, 'cannot write the live show');
          return null;
        },
      );
  }

  /** Whether this show is being recorded now. */
  get recording(): boolean {
    return this.#encoder !== null && this.#error === null;
  }

  listeners(total: number): void {
    this.#peak = Math.max(this.#peak, total);
  }

  /** One block of what went out (float PCM bytes, the encoder keeps the buffer). */
  write(pcm: Buffer): void {
    if (!this.recording) return;
    this.#encoder?.stdin?.write(pcm);
  }

  /** The show ended: the recording is closed and the row completed. Idempotent. */
  end(): Promise<void> {
    this.#ending ??= this.#end();
    return this.#ending;
  }

  async #end(): Promise<void> {
    const endedAt = new Date();
    const encoder = this.#encoder;
    let bytes: number | null = null;
    const out = this.#out;
    if (encoder && out) {
      encoder.stdin?.end();
      await encoder.exited.catch(() => {});
      if (!out.destroyed) await finished(out).catch(() => {});
      bytes = out.bytesWritten;
    }
    const id = await this.#row;
    if (id === null) return;
    await this.#options.db
      .updateTable('live_shows')
      .set({
        ended_at: endedAt.toISOString(),
        peak_listeners: this.#peak,
        recording_bytes: bytes,
        recording_error: this.#error,
      })
      .where('id', '=', id)
      .execute()
      .catch((error: unknown) => this.#log.warn({ err: error }, 'cannot complete the live show'));
  }

  #startRecording(dir: string, file: string): void {
    try {
      mkdirSync(dir, { recursive: true });
      const fs = statfsSync(dir);
      const free = fs.bavail * fs.bsize;
      if (free < MIN_FREE_BYTES) throw new Error(`only ${Math.round(free / 1e6)} MB free`);
    } catch (error) {
      this.#fail((error as Error).message);
      return;
    }
    const encoder = spawnFfmpeg(
      [
        '-nostdin',
        '-loglevel',
        'error',
        ...FFMPEG_PCM_ARGS,
        '-i',
        'pipe:0',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '128k',
        '-f',
        'mp3',
        'pipe:1',
      ],
      {
        ffmpegPath: this.#options.ffmpegPath,
        logger: this.#log,
        name: 'show recorder',
        stdin: 'pipe',
        stdout: 'pipe',
      },
    );
    this.#encoder = encoder;
    // The file is written here, not by ffmpeg: ffmpeg keeps encoding past a failed write (a
    // full disk) and only says so at its end, while this stream fails at the first one.
    const out = createWriteStream(join(dir, file));
    this.#out = out;
    out.on('error', (error) => {
      encoder.stdout?.unpipe(out);
      encoder.stdout?.resume();
      this.#fail(error.message);
    });
    encoder.stdout?.pipe(out);
    encoder.exited.catch((error: unknown) => this.#fail((error as Error).message));
  }

  #fail(reason: string): void {
    if (this.#error !== null) return;
    if (!this.#encoder) this.#file = null;
    this.#error = `recording stopped: ${reason}`;
    // Not the show's failure: logged as an error event for the operator, the DJ stays on air.
    this.#log.error({ dj: this.#options.dj.username, reason }, 'the show recording stopped');
    void this.#encoder?.dispose();
    this.#options.onRecordingError(this.#error);
  }
}
