import { locateFfmpeg } from '../ffmpeg/locate.ts';
import { spawnFfmpeg } from '../ffmpeg/spawn.ts';
import { silentLogger } from '../logging/logger.ts';
import type { MediaToolOptions } from './probe-audio.ts';

/**
 * A SHA-256 of the first audio stream's packets alone (stream copy, no decoding): tags, cover
 * pictures and container padding are not part of it, so re-tagging a file keeps its hash and
 * the same recording uploaded with other tags is found as a duplicate.
 */
export async function audioContentHash(
  path: string,
  options: MediaToolOptions = {},
): Promise<string> {
  const ffmpeg = locateFfmpeg({ ffmpegPath: options.ffmpegPath });
  const args = ['-v', 'error', '-i', path, '-map', '0:a:0', '-c', 'copy'];
  const job = spawnFfmpeg([...args, '-f', 'hash', '-hash', 'sha256', '-'], {
    ffmpegPath: ffmpeg.path,
    logger: options.logger ?? silentLogger(),
    name: 'audio hash',
    stdout: 'pipe',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let output = '';
  job.stdout?.setEncoding('utf8');
  job.stdout?.on('data', (text: string) => {
    output += text;
  });
  try {
    await job.exited;
  } finally {
    await job.dispose();
  }
  const match = /^SHA256=([0-9a-f]{64})$/m.exec(output);
  if (!match?.[1]) throw new Error(`ffmpeg gave no audio hash for ${path}`);
  return match[1];
}
