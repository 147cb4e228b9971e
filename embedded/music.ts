import { readdir } from 'node:fs/promises';
import { isAudioFile, type Logger } from '@radio/core';
import { generateDemoLibrary } from '@radio/core/demo-library';

async function hasAudio(dir: string): Promise<boolean> {
  try {
    const entries = await readdir(dir, { recursive: true });
    return entries.some((entry) => isAudioFile(entry));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** A fresh clone has an empty music folder: fill it with demo tracks so the station plays. */
export async function ensureMusic(
  dir: string,
  ffmpegPath: string,
  logger: Logger,
): Promise<number> {
  if (await hasAudio(dir)) return 0;
  logger.info({ dir }, 'music folder is empty: generating demo tracks');
  const files = await generateDemoLibrary(dir, { ffmpegPath, logger });
  logger.info({ dir, count: files.length }, 'demo tracks written');
  return files.length;
}
