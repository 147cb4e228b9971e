import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isAudioFile, type Logger } from '@radio/core';

/**
 * Every audio file under `root`, relative with `/` separators, in a stable order. Hidden
 * entries are skipped; a folder that cannot be read is logged and skipped, never fatal.
 * Symbolic links to files are followed, links to folders are not (no loops).
 */
export async function listAudioFiles(root: string, logger: Logger): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, relative), { withFileTypes: true });
    } catch (error) {
      logger.warn({ err: error, folder: relative || '.' }, 'cannot read a music folder; skipped');
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path);
      else if ((entry.isFile() || entry.isSymbolicLink()) && isAudioFile(entry.name)) {
        found.push(path);
      }
    }
  };
  await walk('');
  return found;
}
