import { chmod, rename, rm, stat } from 'node:fs/promises';
import { FfmpegExitError, type Logger, runFfmpeg } from '@radio/core';
import { ApiError } from '../errors.ts';
import { hiddenSibling } from './library-paths.ts';

export interface RewriteOptions {
  ffmpegPath: string;
  logger: Logger;
}

/**
 * Writes the next version of `file` with ffmpeg (`args` between the inputs and the output)
 * into a hidden file beside it, then renames it over `file`: readers see the old file or the
 * new one, never half of one, and the watcher sees one change. The hidden file is removed
 * whatever happens.
 */
export async function rewrite(
  file: string,
  inputs: string[],
  args: string[],
  options: RewriteOptions,
): Promise<void> {
  const temp = hiddenSibling(file, 'tags');
  try {
    const mode = (await stat(file)).mode & 0o7777;
    try {
      await runFfmpeg(['-nostdin', '-loglevel', 'error', '-y', ...inputs, ...args, temp], {
        ffmpegPath: options.ffmpegPath,
        logger: options.logger,
        name: 'tag writer',
      });
    } catch (error) {
      const detail =
        error instanceof FfmpegExitError ? error.stderrTail.join(' | ') : String(error);
      throw new ApiError('API_TAG_WRITE_FAILED', `ffmpeg could not rewrite the file: ${detail}`);
    }
    await chmod(temp, mode);
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
}
