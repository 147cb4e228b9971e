import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
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

/** Whether `distDir` holds a built app (its index.html). */
export async function isWebBuilt(distDir: string = DEFAULT_DIST_DIR): Promise<boolean> {
  try {
    await access(join(distDir, 'index.html'));
    return true;
  } catch {
    return false;
  }
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

/** Builds the app unless `distDir` already holds one: what the embedded launcher calls first. */
export async function ensureWebBuild(
  options: { logger?: Logger; distDir?: string } = {},
): Promise<{ built: boolean }> {
  const distDir = options.distDir ?? DEFAULT_DIST_DIR;
  if (await isWebBuilt(distDir)) return { built: false };
  await buildWebApp({
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.distDir ? { outDir: options.distDir } : {}),
  });
  return { built: true };
}
