import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const MAX_BODY = 1024 * 1024;

/**
 * GET a small JSON (or any) document with a hard deadline. No connection pool: these calls are
 * rare (health checks, Icecast stats, cached), and a pooled idle socket would keep a process or
 * a test run alive.
 */
export function httpGet(url: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      { method: 'GET', agent: false, headers: { accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY) {
            req.destroy(new Error(`the answer of ${target.origin} is too large`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer from ${target.origin} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end();
  });
}
