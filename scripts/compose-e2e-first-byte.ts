// A listener's first byte (for scripts/compose-e2e.ts's tls stage): the time from the start of
// the connection to the first byte of audio after the response headers, over HTTPS through the
// tls profile's Caddy or over plain HTTP on the stream port. Raw sockets, so nothing is
// buffered or reused between tries: each try is a new listener, handshake included.
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export interface Target {
  /** Where to connect (127.0.0.1). */
  address: string;
  port: number;
  /** The Host header, and the TLS server name when `ca` is given. */
  host: string;
  path: string;
  /** PEM of the root that signs the server's certificate: HTTPS; absent: plain HTTP. */
  ca?: string;
}

const TIMEOUT_MS = 10_000;

/** Milliseconds from connect() to the first body byte of one GET. */
export function firstByteMs(target: Target): Promise<number> {
  const started = performance.now();
  const socket: Socket =
    target.ca === undefined
      ? connectTcp(target.port, target.address)
      : connectTls({
          host: target.address,
          port: target.port,
          servername: target.host,
          ca: target.ca,
          ALPNProtocols: ['http/1.1'],
        });
  return new Promise<number>((resolve, reject) => {
    let head = Buffer.alloc(0);
    const fail = (error: Error): void => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(TIMEOUT_MS, () => fail(new Error(`no audio from ${target.path} in time`)));
    socket.once('error', fail);
    socket.once(target.ca === undefined ? 'connect' : 'secureConnect', () => {
      socket.write(
        `GET ${target.path} HTTP/1.1\r\nHost: ${target.host}\r\nUser-Agent: compose-e2e\r\nConnection: close\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      if (!/^HTTP\/1\.[01] 200 /.test(status)) {
        fail(new Error(`${target.path} answered ${status}`));
        return;
      }
      // A chunked body's first chunk starts with its size line: the audio comes after it.
      const chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head.subarray(0, end).toString());
      const body = head.subarray(end + 4);
      const sizeLineEnd = body.indexOf('\r\n');
      if (chunked && sizeLineEnd < 0) return;
      if (body.length <= (chunked ? sizeLineEnd + 2 : 0)) return;
      const ms = performance.now() - started;
      socket.destroy();
      resolve(ms);
    });
  });
}

export interface Figures {
  median: number;
  min: number;
  max: number;
  p90: number;
}

export function figures(samples: readonly number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0, p90: at(0.9) };
}

/** `tries` first bytes of each target, taken in turns so both see the same moments. */
export async function compareFirstBytes(
  targets: Record<string, Target>,
  tries: number,
): Promise<Record<string, Figures>> {
  const samples: Record<string, number[]> = Object.fromEntries(
    Object.keys(targets).map((name) => [name, []]),
  );
  for (let i = 0; i < tries; i++) {
    for (const [name, target] of Object.entries(targets)) {
      samples[name]?.push(await firstByteMs(target));
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, figures(values)]),
  );
}
