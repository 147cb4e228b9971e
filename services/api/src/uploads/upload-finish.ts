import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AudioFileInfo,
  audioContentHash,
  type Logger,
  type MediaToolOptions,
  probeAudioFile,
} from '@radio/core';
import type { Track } from '@radio/db';
import { toTrackDto } from '../dtos/mappers.ts';
import type { UploadResultDto } from '../dtos/uploads.dto.ts';
import type { AuditRepository } from '../repositories/audit.repository.ts';
import type { LibraryRepository } from '../repositories/library.repository.ts';
import { placeFile } from './place-file.ts';
import type { TrackHashes } from './track-hashes.ts';
import { refusalError } from './upload-errors.ts';
import type { UploadTarget } from './upload-names.ts';

export interface UploadFinishDeps {
  musicDir: string;
  hashes: TrackHashes;
  audit: AuditRepository;
  /** Where the track is marked as the uploader's (a DJ may delete its own uploads). */
  library: Pick<LibraryRepository, 'recordUpload'>;
  media: MediaToolOptions;
  /** How long a finished upload waits for the scheduler to index it (ms). */
  indexWaitMs: number;
}

export interface Uploader {
  id: number;
  username: string;
}

const INDEX_POLL_MS = 100;

/**
 * What happens to an upload once its last byte is in: it must be audio the station plays
 * (415/422 otherwise), it is a duplicate if the library has its audio already, else it is put
 * in its folder in one step (409 if the name was taken meanwhile), written to the audit log,
 * and answered with its track once the scheduler has indexed it, marked as the uploader's.
 */
export class UploadFinisher {
  readonly #deps: UploadFinishDeps;

  constructor(deps: UploadFinishDeps) {
    this.#deps = deps;
  }

  /** `source` is the finished upload's file; it is left for the caller to drop. */
  async finish(
    source: string,
    target: UploadTarget,
    user: Uploader,
    log: Logger,
  ): Promise<UploadResultDto> {
    const { hashes, media } = this.#deps;
    const probe = await probeAudioFile(source, media);
    if (!probe.ok) throw refusalError(probe);
    const hash = await audioContentHash(source, media);
    const duplicate = await hashes.findDuplicate(hash, probe.duration);
    if (duplicate) {
      log.info({ path: target.path, duplicateOf: duplicate.path }, 'upload is a duplicate');
      return {
        status: 'duplicate',
        path: target.path,
        track: null,
        duplicateOf: toTrackDto(duplicate),
      };
    }
    const destination = join(this.#deps.musicDir, target.path);
    await placeFile(source, destination, target.path);
    log.info({ path: target.path, format: probe.format, size: probe.size }, 'upload added');
    await this.#audit(target, user, probe, hash);
    const track = await this.#indexed(target.path, destination, hash);
    await this.#deps.library.recordUpload(target.path, user.id);
    return { status: 'added', path: target.path, track: track ? toTrackDto(track) : null };
  }

  async #audit(
    target: UploadTarget,
    user: Uploader,
    probe: AudioFileInfo,
    hash: string,
  ): Promise<void> {
    await this.#deps.audit.record({
      user,
      action: 'track.upload',
      target: target.path,
      details: {
        size: probe.size,
        format: probe.format,
        codec: probe.codec,
        duration: Math.round(probe.duration * 100) / 100,
        audioHash: hash,
      },
    });
  }

  /**
   * The track once the scheduler has indexed the file (bounded by indexWaitMs), with the hash
   * we know already stored; undefined if the index has not caught up yet.
   */
  async #indexed(path: string, file: string, hash: string): Promise<Track | undefined> {
    const { hashes, indexWaitMs } = this.#deps;
    const deadline = Date.now() + indexWaitMs;
    for (;;) {
      const track = await hashes.findByPath(path);
      if (track && track.status !== 'missing') {
        const info = await stat(file).catch(() => null);
        const current =
          info !== null &&
          Number(track.size) === info.size &&
          Number(track.mtime) === Math.floor(info.mtimeMs);
        if (current && track.audio_hash === null && (await hashes.store(track, hash))) {
          return { ...track, audio_hash: hash };
        }
        if (current) return track;
      }
      if (Date.now() >= deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, INDEX_POLL_MS));
    }
  }
}
