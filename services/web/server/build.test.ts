import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ensureWebBuild, isWebBuilt } from './build.ts';
import { firstPageJs } from './bundle-size.ts';

const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('ensureWebBuild', () => {
  it('builds the app when there is none, precompressed, and leaves a build alone', async () => {
    const root = await mkdtemp(join(tmpdir(), 'radio-web-build-'));
    dirs.push(root);
    const distDir = join(root, 'dist');
    expect(await isWebBuilt(distDir)).toBe(false);

    await expect(ensureWebBuild({ distDir })).resolves.toEqual({ built: true });
    expect(await isWebBuilt(distDir)).toBe(true);
    const assets = await readdir(join(distDir, 'assets'));
    expect(assets.some((name) => /^index-.+\.js$/.test(name))).toBe(true);
    expect(assets.some((name) => /^index-.+\.js\.br$/.test(name))).toBe(true);
    expect(assets.some((name) => /^index-.+\.js\.gz$/.test(name))).toBe(true);

    const size = await firstPageJs(distDir);
    expect(size.files.length).toBeGreaterThan(0);
    expect(size.gzipBytes).toBeLessThan(200 * 1024);

    await expect(ensureWebBuild({ distDir })).resolves.toEqual({ built: false });
  }, 180_000);

  it('counts a build older than any of its sources as not built', async () => {
    const root = await mkdtemp(join(tmpdir(), 'radio-web-stale-'));
    dirs.push(root);
    const distDir = join(root, 'dist');
    const source = join(root, 'app.tsx');
    await mkdir(distDir);
    await writeFile(join(distDir, 'index.html'), '<!doctype html>\n');
    await writeFile(source, 'export {};\n');
    const past = new Date(Date.now() - 60_000);
    await utimes(source, past, past);
    expect(await isWebBuilt(distDir, [source, join(root, 'missing')])).toBe(true);
    const future = new Date(Date.now() + 60_000);
    await utimes(source, future, future);
    expect(await isWebBuilt(distDir, [source])).toBe(false);
    expect(await isWebBuilt(distDir, [root])).toBe(false);
  });
});
