import { readdir, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { DbHandle } from '@radio/db';
import type { Page } from '../dtos/common.dto.ts';
import type { AuditEntryDto, StorageDto } from '../dtos/uploads.dto.ts';
import type { AuditRepository } from '../repositories/audit.repository.ts';
import { UPLOADS_FOLDER } from './upload-store.ts';

function parseDetails(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  } catch {
    return { text };
  }
}

/** The admin's view of the library's storage and of who changed it (the audit log). */
export class LibraryAdmin {
  readonly #db: DbHandle;
  readonly #audit: AuditRepository;
  readonly #musicDir: string;

  constructor(db: DbHandle, audit: AuditRepository, musicDir: string) {
    this.#db = db;
    this.#audit = audit;
    this.#musicDir = musicDir;
  }

  /** The music volume's space (statfs), the trash (from its table) and unfinished uploads. */
  async storage(): Promise<StorageDto> {
    const [volume, trash, uploads] = await Promise.all([
      statfs(this.#musicDir),
      this.#db.db
        .selectFrom('trash')
        .select((eb) => [
          eb.fn.countAll<number>().as('files'),
          eb.fn.sum<number>('size').as('bytes'),
        ])
        .executeTakeFirstOrThrow(),
      this.#unfinishedUploads(),
    ]);
    const totalBytes = volume.blocks * volume.bsize;
    return {
      music: {
        totalBytes,
        freeBytes: volume.bavail * volume.bsize,
        usedBytes: (volume.blocks - volume.bfree) * volume.bsize,
      },
      trash: { files: Number(trash.files), bytes: Number(trash.bytes ?? 0) },
      uploads,
    };
  }

  async audit(page: number, limit: number, action?: string): Promise<Page<AuditEntryDto>> {
    const { rows, total } = await this.#audit.list((page - 1) * limit, limit, action);
    return {
      items: rows.map((row) => ({
        id: row.id,
        at: row.at,
        userId: row.user_id,
        username: row.username,
        action: row.action,
        target: row.target,
        details: parseDetails(row.details),
      })),
      total,
      page,
      limit,
    };
  }

  async #unfinishedUploads(): Promise<{ files: number; bytes: number }> {
    const folder = join(this.#musicDir, UPLOADS_FOLDER);
    const names = await readdir(folder).catch(() => [] as string[]);
    let files = 0;
    let bytes = 0;
    for (const name of names) {
      if (name.endsWith('.json')) continue;
      const info = await stat(join(folder, name)).catch(() => null);
      if (!info?.isFile()) continue;
      files += 1;
      bytes += info.size;
    }
    return { files, bytes };
  }
}
