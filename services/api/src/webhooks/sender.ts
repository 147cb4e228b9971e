import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './ssrf-guard.ts';

export interface SendResult {
  ok: boolean;
  /** The receiver's HTTP status; null when none came (network error, timeout). */
  statusCode: number | null;
  error: string | null;
  /** Null when no answer came: how long a failure took would tell why it failed. */
  latencyMs: number | null;
  /** Why no answer came (refused, reset, timeout …): for the api's log, never for a client. */
  detail?: string;
}

/** How much of a receiver's answer is read before the connection is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Connects to the address the guard checked, never to a second answer of the name server. */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  const [first] = target.addresses;
  return (_hostname, options, callback) => {
    if (!first) {
      callback(new Error('no checked address'), '', 4);
      return;
    }
    if (options.all) callback(null, [first]);
    else callback(null, first.address, first.family);
  };
}

/**
 * What a failure without an answer says, whatever the cause: a refused, reset, timed out or
 * unreachable connection would otherwise tell whoever sets a webhook's URL which ports are
 * open on the hosts the api can reach.
 */
export function noAnswer(timeoutMs: number): string {
  return `no answer from the receiver within ${timeoutMs / 1000} s (it could not be reached, or did not answer)`;
}

/**
 * POSTs one body. 2xx is a success; anything else, a network error or no answer within
 * `timeoutMs` (headers and body together) is a failure to retry. Redirects are not followed.
 * `signal` gives up at once (the api is stopping). With `holdFailures`, a failure without an
 * answer is reported when the timeout is up, however fast the connection failed: someone
 * waiting for the outcome learns from the time it took no more than from its words.
 */
export function sendWebhook(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal: AbortSignal,
  holdFailures = false,
): Promise<SendResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({ ...result, latencyMs: result.statusCode === null ? null : latency() });
    };
    const unanswered = (detail: string) =>
      finish({ ok: false, statusCode: null, error: noAnswer(timeoutMs), detail });
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target.url, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Length': String(Buffer.byteLength(body)),
        'User-Agent': 'radio-webhooks/1',
      },
      lookup: pinnedLookup(target),
      agent: false,
    });
    const giveUp = (detail: string) => {
      unanswered(detail);
      req.destroy();
    };
    let failed: string | null = null;
    const timer = setTimeout(() => giveUp(failed ?? `no answer within ${timeoutMs} ms`), timeoutMs);
    const onAbort = () => giveUp('the api stopped');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res) => {
      const statusCode = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const done = () => {
        const ok = statusCode >= 200 && statusCode < 300;
        finish({ ok, statusCode, error: ok ? null : `the receiver answered ${statusCode}` });
      };
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.on('error', (error) => {
      if (holdFailures) failed ??= error.message;
      else unanswered(error.message);
    });
    req.end(body);
  });
}
