import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join, relative } from 'node:path';
import type { Readable } from 'node:stream';

/*
 * A small tus 1.0 client over node:http for the upload tests: real requests on loopback, the
 * body streamed from the file, and a request that can be cut off part way.
 */

export interface TusAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The JSON body, when there is one. */
  json: unknown;
}

export interface TusRequest {
  method: string;
  url: string;
  cookie: string;
  headers?: Record<string, string | number>;
  body?: Buffer | Readable;
  /** Cut the connection once this many body bytes are sent (the request then rejects). */
  cutAfter?: number;
}

function encodeMetadata(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');
}

export function send(options: TusRequest): Promise<TusAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(options.url, {
      method: options.method,
      headers: { 'Tus-Resumable': '1.0.0', Cookie: options.cookie, ...options.headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          json = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    const body = options.body;
    if (body === undefined) {
      req.end();
    } else if (Buffer.isBuffer(body)) {
      req.end(body);
    } else {
      let sent = 0;
      body.on('data', (chunk: Buffer) => {
        sent += chunk.length;
        if (options.cutAfter !== undefined && sent >= options.cutAfter) {
          body.destroy();
          req.destroy(new Error('cut off by the test'));
        }
      });
      body.pipe(req);
    }
  });
}

export interface CreateOptions {
  base: string;
  cookie: string;
  metadata: Record<string, string>;
  length?: number;
  /** Upload-Defer-Length: 1 instead of a length. */
  deferLength?: boolean;
  origin?: string;
}

/** POST /uploads; `location` is the absolute upload URL when created. */
export async function createUpload(
  options: CreateOptions,
): Promise<TusAnswer & { location: string | null }> {
  const headers: Record<string, string | number> = {
    'Upload-Metadata': encodeMetadata(options.metadata),
  };
  if (options.deferLength) headers['Upload-Defer-Length'] = 1;
  else headers['Upload-Length'] = options.length ?? 0;
  if (options.origin) headers.Origin = options.origin;
  const answer = await send({
    method: 'POST',
    url: `${options.base}/api/radio/uploads`,
    cookie: options.cookie,
    headers,
  });
  const location = answer.headers.location;
  return {
    ...answer,
    location: typeof location === 'string' ? new URL(location, options.base).toString() : null,
  };
}

export function patchUpload(
  url: string,
  cookie: string,
  offset: number,
  body: Buffer | Readable,
  extra: { length?: number; cutAfter?: number; headers?: Record<string, string | number> } = {},
): Promise<TusAnswer> {
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/offset+octet-stream',
    'Upload-Offset': offset,
    ...extra.headers,
  };
  if (extra.length !== undefined) headers['Content-Length'] = extra.length;
  return send({
    method: 'PATCH',
    url,
    cookie,
    headers,
    body,
    ...(extra.cutAfter !== undefined && { cutAfter: extra.cutAfter }),
  });
}

export async function uploadOffset(url: string, cookie: string): Promise<number | null> {
  const answer = await send({ method: 'HEAD', url, cookie });
  if (answer.status !== 200) return null;
  return Number(answer.headers['upload-offset']);
}

/** The whole tus exchange for one file: create, then one PATCH streamed from disk. */
export async function uploadFile(
  base: string,
  cookie: string,
  file: string,
  metadata: Record<string, string>,
): Promise<TusAnswer> {
  const { size } = await stat(file);
  const created = await createUpload({ base, cookie, metadata, length: size });
  if (created.status !== 201 || !created.location) return created;
  return patchUpload(created.location, cookie, 0, createReadStream(file), { length: size });
}

/** Every file under `dir` (relative, sorted), dot-folders included. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

export async function loginCookie(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/api/radio/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: 'correct horse battery' }),
  });
  if (res.status !== 200) throw new Error(`login of ${username}: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

export function sha256(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** The error code of an answer in the api's error shape (throws if it is not one). */
export function errorCode(answer: TusAnswer): string {
  const body = answer.json as { error?: { code?: string; message?: string } } | null;
  if (!body?.error?.code || typeof body.error.message !== 'string') {
    throw new Error(`not an error body: ${answer.status} ${answer.text}`);
  }
  return body.error.code;
}
