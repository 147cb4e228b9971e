import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.map',
  '.txt',
  '.svg',
]);
/** Below this, compression saves less than the headers it costs. */
const MIN_COMPRESS_BYTES = 1024;

/** Vite names built assets `name-<hash>.ext`: such a file never changes, so it is cached for good. */
const HASHED = /^\/assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'no-cache';
const CACHE_PUBLIC_FILE = 'public, max-age=3600';

/**
 * The app's pages may load scripts and styles from this origin only; audio comes from the
 * stream server, which may be another origin (PUBLIC_STREAM_URL): as media, or as HLS
 * playlists and segments that hls.js fetches (connect-src) and transmuxes in a blob: worker.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  'media-src * data: blob:',
  "connect-src 'self' http: https:",
  "worker-src 'self' blob:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface StaticAsset {
  /** The URL path (`/assets/index-abc123.js`). */
  readonly path: string;
  readonly type: string;
  readonly body: Buffer;
  readonly br: Buffer | null;
  readonly gzip: Buffer | null;
  readonly etag: string;
  readonly cacheControl: string;
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** The best encoding the client accepts among the ones we have (`q=0` refuses one). */
export function negotiateEncoding(
  header: string | undefined,
  available: { br: boolean; gzip: boolean },
): Encoding {
  if (!header) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') q = Number(value);
    }
    accepted.set(name, Number.isFinite(q) ? q : 0);
  }
  const quality = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  const candidates: Encoding[] = [];
  if (available.br && quality('br') > 0) candidates.push('br');
  if (available.gzip && quality('gzip') > 0) candidates.push('gzip');
  candidates.sort((a, b) => quality(b) - quality(a));
  return candidates[0] ?? 'identity';
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function cacheControlFor(path: string): string {
  if (path === '/index.html') return CACHE_REVALIDATE;
  if (HASHED.test(path)) return CACHE_IMMUTABLE;
  return CACHE_PUBLIC_FILE;
}

/**
 * The built app, read into memory once (a few hundred kilobytes): each request is a map
 * lookup, with the `.br`/`.gz` files the build wrote, or compressed here at load for files
 * that have none.
 */
export class StaticFiles {
  readonly #assets: Map<string, StaticAsset>;
  readonly index: StaticAsset;

  private constructor(assets: Map<string, StaticAsset>, index: StaticAsset) {
    this.#assets = assets;
    this.index = index;
  }

  get size(): number {
    return this.#assets.size;
  }

  /** Throws `ENOENT` when `distDir` has no index.html: the app was not built. */
  static async load(distDir: string): Promise<StaticFiles> {
    const files = await walk(distDir);
    const names = new Set(files);
    const assets = new Map<string, StaticAsset>();
    await Promise.all(
      files
        .filter((file) => !file.endsWith('.br') && !file.endsWith('.gz'))
        .map(async (file) => {
          const path = `/${relative(distDir, file).split(sep).join('/')}`;
          const ext = extname(file).toLowerCase();
          const body = await readFile(file);
          let br = names.has(`${file}.br`) ? await readFile(`${file}.br`) : null;
          let gzipped = names.has(`${file}.gz`) ? await readFile(`${file}.gz`) : null;
          if (COMPRESSIBLE.has(ext) && body.length >= MIN_COMPRESS_BYTES) {
            br ??= await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
            gzipped ??= await gz(body, { level: 9 });
          }
          // A compressed copy that is not smaller is not worth sending.
          if (br && br.length >= body.length) br = null;
          if (gzipped && gzipped.length >= body.length) gzipped = null;
          const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
          assets.set(path, {
            path,
            type: TYPES[ext] ?? 'application/octet-stream',
            body,
            br,
            gzip: gzipped,
            etag,
            cacheControl: cacheControlFor(path),
          });
        }),
    );
    const index = assets.get('/index.html');
    if (!index) {
      const error = new Error(`no index.html in ${distDir}`) as NodeJS.ErrnoException;
      error.code = 'ENOENT';
      throw error;
    }
    return new StaticFiles(assets, index);
  }

  get(path: string): StaticAsset | undefined {
    return this.#assets.get(path);
  }

  /**
   * What a path means: a file of the build, the app's index.html for an app route (the SPA
   * fallback), or nothing (a missing asset is a 404, never the HTML page in its place).
   */
  resolve(pathname: string): { asset: StaticAsset; fallback: boolean } | null {
    let path: string;
    try {
      path = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (path === '/') return { asset: this.index, fallback: false };
    const asset = this.#assets.get(path);
    if (asset) return { asset, fallback: false };
    const last = path.slice(path.lastIndexOf('/') + 1);
    if (path.startsWith('/assets/') || last.includes('.')) return null;
    return { asset: this.index, fallback: true };
  }
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Headers every page of the app gets. */
export function setPageSecurityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  // The microphone for this origin only: the Go live page broadcasts from it.
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(self), geolocation=()');
}

/**
 * Answers a GET or HEAD for the built app: the file or the SPA fallback, with its caching
 * headers, a 304 when the client's copy is current, and the smallest encoding it accepts.
 */
export function serveStatic(
  files: StaticFiles,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const found = files.resolve(pathname);
  if (!found) {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.end(req.method === 'HEAD' ? undefined : 'Not found\n');
    return;
  }
  const { asset } = found;
  if (asset.type.startsWith('text/html')) setPageSecurityHeaders(res);
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Cache-Control', asset.cacheControl);
  res.setHeader('ETag', asset.etag);
  if (asset.br || asset.gzip) res.setHeader('Vary', 'Accept-Encoding');

  if (etagMatches(req.headers['if-none-match'], asset.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const encoding = negotiateEncoding(req.headers['accept-encoding'], {
    br: asset.br !== null,
    gzip: asset.gzip !== null,
  });
  const body = encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.body;
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', String((body as Buffer).length));
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : body);
}
