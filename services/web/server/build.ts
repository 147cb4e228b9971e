import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Logger } from '@radio/core';

const execFileP = promisify(execFile);

/** services/web, wherever the repository is. */
export const WEB_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where `pnpm --filter @radio/web build` writes the app. */
export const DEFAULT_DIST_DIR = join(WEB_ROOT, 'dist');

export const BUILD_COMMAND = 'pnpm --filter @radio/web build';

/** What the build is made from: a change to any of these makes a build stale. */
export const WEB_SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map(
  (name) => join(WEB_ROOT, name),
);

/** The newest modification time under `paths` (files, or folders searched recursively). */
async function newestMtime(paths: readonly string[]): Promise<number> {
  let newest = 0;
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (!info) continue;
    newest = Math.max(newest, info.mtimeMs);
    if (!info.isDirectory()) continue;
    const entries = await readdir(path, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = await stat(join(entry.parentPath, entry.name)).catch(() => null);
      if (file) newest = Math.max(newest, file.mtimeMs);
    }
  }
  return newest;
}

/**
 * Whether `distDir` holds a build (its index.html) at least as new as every source, so a
 * checkout that pulled new web code is not served yesterday's app.
 */
export async function isWebBuilt(
  distDir: string = DEFAULT_DIST_DIR,
  sources: readonly string[] = WEB_SOURCES,
): Promise<boolean> {
  const built = await stat(join(distDir, 'index.html')).catch(() => null);
  if (!built) return false;
  return built.mtimeMs >= (await newestMtime(sources));
}

/**
 * Builds the app as `pnpm --filter @radio/web build` does, in a child process: the build's
 * memory and its NODE_ENV stay out of the process that asked for it (the embedded station).
 */
export async function buildWebApp(
  options: { logger?: Logger; outDir?: string } = {},
): Promise<void> {
  const log = options.logger;
  const started = Date.now();
  const vite = join(
    dirname(createRequire(import.meta.url).resolve('vite/package.json')),
    'bin',
    'vite.js',
  );
  const args = [vite, 'build', '--logLevel', 'warn'];
  if (options.outDir) args.push('--outDir', options.outDir, '--emptyOutDir');
  log?.info({ root: WEB_ROOT }, 'building the web app');
  try {
    await execFileP(process.execPath, args, {
      cwd: WEB_ROOT,
      timeout: 10 * 60 * 1000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const output = `${(error as { stderr?: string }).stderr ?? ''}${(error as { stdout?: string }).stdout ?? ''}`;
    throw new Error(
      `the web app did not build: ${output.trim().split('\n').slice(-5).join(' | ') || (error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  log?.info({ ms: Date.now() - started }, 'web app built');
}

/**
 * Builds the app unless `distDir` already holds a current build: what the embedded launcher
 * calls first.
 */
export async function ensureWebBuild(
  options: { logger?: Logger; distDir?: string; sources?: readonly string[] } = {},
): Promise<{ built: boolean }> {
  const distDir = options.distDir ?? DEFAULT_DIST_DIR;
  if (await isWebBuilt(distDir, options.sources)) return { built: false };
  // Build beside the target and swap it in: a station starting at the same moment (tests run
  // several) never reads a half-written folder, and two builders do not empty each other's.
  const tag = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const staging = `${distDir}.building-${tag}`;
  const previous = `${distDir}.previous-${tag}`;
  try {
    await buildWebApp({ ...(options.logger ? { logger: options.logger } : {}), outDir: staging });
    await rename(distDir, previous).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(staging, distDir).catch((error: NodeJS.ErrnoException) => {
      // Another builder swapped its build in first: the same sources, so keep that one.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(previous, { recursive: true, force: true });
  }
  return { built: true };
}
