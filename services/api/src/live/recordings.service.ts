import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { basename, resolve, sep } from 'node:path';
import type { Logger } from '@radio/core';
import type { LiveShow } from '@radio/db';
import type { Response } from 'express';
import type { Page } from '../dtos/common.dto.ts';
import type { RecordingDto, RecordingListQuery } from '../dtos/live.dto.ts';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import type { RecordingsRepository } from './recordings.repository.ts';

function toRecordingDto(show: LiveShow): RecordingDto {
  const duration =
    show.ended_at === null
      ? null
      : Math.max(0, (Date.parse(show.ended_at) - Date.parse(show.started_at)) / 1000);
  return {
    id: show.id,
    userId: show.user_id,
    djName: show.dj_name,
    startedAt: show.started_at,
    endedAt: show.ended_at,
    duration,
    peakListeners: show.peak_listeners,
    bytes: show.recording_bytes === null ? null : Number(show.recording_bytes),
    error: show.recording_error,
  };
}

/**
 * The recorded shows the scheduler wrote under DATA_DIR/recordings: listed, downloaded and
 * deleted by admins, and by a DJ for its own shows. Another DJ's recording answers 404, as if
 * it did not exist.
 */
export class RecordingsService {
  readonly #repo: RecordingsRepository;
  readonly #folder: string;
  readonly #log: Logger;

  constructor(repo: RecordingsRepository, dataDir: string, logger: Logger) {
    this.#repo = repo;
    this.#folder = resolve(dataDir, 'recordings');
    this.#log = logger;
  }

  async list(query: RecordingListQuery, user: AuthUser): Promise<Page<RecordingDto>> {
    const own = user.role === 'admin' ? undefined : user.id;
    const { rows, total } = await this.#repo.list(own, (query.page - 1) * query.limit, query.limit);
    return { items: rows.map(toRecordingDto), total, page: query.page, limit: query.limit };
  }

  /** Sends the MP3 as an attachment named after the DJ and the start time. */
  async download(id: number, user: AuthUser, res: Response): Promise<void> {
    const show = await this.#visible(id, user);
    const path = this.#pathOf(show);
    const size = await stat(path).then(
      (info) => info.size,
      () => {
        throw new ApiError(
          'API_RECORDING_NOT_FOUND',
          'the recording file is gone from DATA_DIR/recordings',
        );
      },
    );
    const name = `${show.dj_name} ${show.started_at.slice(0, 16).replace('T', ' ')}`
      .replace(/[^A-Za-z0-9 ._-]+/g, '_')
      .replace(/:/g, '-');
    res.status(200);
    res.setHeader('Content-Type', 'audio/mpeg');
    res.setHeader('Content-Length', String(size));
    res.setHeader('Content-Disposition', `attachment; filename="${name}.mp3"`);
    res.setHeader('Cache-Control', 'private, no-store');
    await new Promise<void>((done) => {
      const file = createReadStream(path);
      file.on('error', (error) => {
        this.#log.warn({ err: error, path }, 'reading a recording failed');
        res.destroy();
        done();
      });
      res.on('close', () => {
        file.destroy();
        done();
      });
      file.pipe(res);
    });
  }

  async delete(id: number, user: AuthUser): Promise<void> {
    const show = await this.#visible(id, user);
    if (show.ended_at === null) throw new ApiError('API_RECORDING_IN_PROGRESS');
    await rm(this.#pathOf(show), { force: true });
    await this.#repo.delete(id);
  }

  async #visible(id: number, user: AuthUser): Promise<LiveShow> {
    const show = await this.#repo.find(id);
    if (!show || (user.role !== 'admin' && show.user_id !== user.id)) {
      throw new ApiError('API_RECORDING_NOT_FOUND');
    }
    return show;
  }

  /** The file inside the recordings folder; a stored name that points elsewhere is refused. */
  #pathOf(show: LiveShow): string {
    const path = resolve(this.#folder, show.recording_file ?? '');
    if (!path.startsWith(this.#folder + sep) || basename(path) === '') {
      throw new ApiError(
        'API_RECORDING_NOT_FOUND',
        'the recording is not under DATA_DIR/recordings',
      );
    }
    return path;
  }
}
