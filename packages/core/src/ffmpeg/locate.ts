import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { RadioError } from '../errors.ts';

export type FfmpegSource = 'FFMPEG_PATH' | 'PATH' | '@ffmpeg-installer/ffmpeg';

export interface FfmpegLocation {
  readonly path: string;
  readonly source: FfmpegSource;
}

export class FfmpegNotFoundError extends RadioError {
  constructor(message: string) {
    super('FFMPEG_NOT_FOUND', message);
  }
}

function isExecutable(path: string): boolean {
  try {
    // Mode bits rather than access(X_OK): as root, access() says yes to any existing file.
    const info = statSync(path);
    return info.isFile() && (info.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function onPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

function fromInstallerPackage(): string | undefined {
  try {
    // The package is optional: on a machine where it did not install, require throws.
    const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as {
      path: string;
    };
    return isExecutable(installer.path) ? installer.path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds ffmpeg as DESIGN.md orders it: FFMPEG_PATH, then PATH, then the binary of the optional
 * npm package, so a machine with only Node can still play.
 */
export function locateFfmpeg(
  options: { ffmpegPath?: string | undefined; pathVar?: string | undefined } = {},
): FfmpegLocation {
  if (options.ffmpegPath !== undefined) {
    if (!isExecutable(options.ffmpegPath)) {
      throw new FfmpegNotFoundError(`FFMPEG_PATH=${options.ffmpegPath} is not an executable file`);
    }
    return { path: options.ffmpegPath, source: 'FFMPEG_PATH' };
  }
  const pathVar = 'pathVar' in options ? options.pathVar : process.env.PATH;
  const found = onPath('ffmpeg', pathVar);
  if (found) return { path: found, source: 'PATH' };
  const bundled = fromInstallerPackage();
  if (bundled) return { path: bundled, source: '@ffmpeg-installer/ffmpeg' };
  throw new FfmpegNotFoundError(
    'ffmpeg not found: set FFMPEG_PATH, install ffmpeg (apt-get install ffmpeg), or install the optional @ffmpeg-installer/ffmpeg package',
  );
}

/** ffprobe beside the located ffmpeg, else on PATH (the npm package ships no ffprobe). */
export function locateFfprobe(ffmpeg: FfmpegLocation): string {
  const sibling = join(dirname(ffmpeg.path), 'ffprobe');
  if (isExecutable(sibling)) return sibling;
  const found = onPath('ffprobe', process.env.PATH);
  if (found) return found;
  throw new FfmpegNotFoundError('ffprobe not found beside ffmpeg or on PATH');
}

/** The version ffmpeg reports (`5.1.8-0+deb12u1`), or throws if it does not run. */
export async function ffmpegVersion(path: string): Promise<string> {
  const { stdout } = await promisify(execFile)(path, ['-hide_banner', '-version'], {
    timeout: 10_000,
  });
  const match = /^ffmpeg version (\S+)/m.exec(stdout);
  if (!match?.[1]) throw new FfmpegNotFoundError(`${path} did not report an ffmpeg version`);
  return match[1];
}
