import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gz = promisify(gzip);

export interface FirstPageJs {
  files: { path: string; bytes: number; gzipBytes: number }[];
  bytes: number;
  gzipBytes: number;
}

/**
 * The JavaScript a browser loads for the first page: the entry script of index.html and the
 * chunks it preloads (what the Listen page needs; the other pages load on demand).
 */
export async function firstPageJs(distDir: string): Promise<FirstPageJs> {
  const html = await readFile(join(distDir, 'index.html'), 'utf8');
  const paths = new Set<string>();
  for (const match of html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g))
    paths.add(match[1] as string);
  for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)) {
    paths.add(match[1] as string);
  }
  const files = await Promise.all(
    [...paths].map(async (path) => {
      const file = join(distDir, path.replace(/^\//, ''));
      const body = await readFile(file);
      const gzipBytes = await stat(`${file}.gz`).then(
        (s) => s.size,
        async () => (await gz(body, { level: 9 })).length,
      );
      return { path, bytes: body.length, gzipBytes };
    }),
  );
  return {
    files,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
  };
}
