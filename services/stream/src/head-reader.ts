import type { Socket } from 'node:net';
import { findHeadEnd, parseRequestHead, type RequestHead } from './request-head.ts';

export type HeadOutcome =
  | { kind: 'head'; head: RequestHead; raw: Buffer }
  | { kind: 'bad'; code: 'STREAM_BAD_REQUEST' | 'STREAM_HEADER_TOO_LARGE'; reason: string }
  | { kind: 'gone' };

/**
 * Reads a new connection's request head, then pauses the socket and hands it on. A head that
 * does not end within `maxBytes` (an endless header) or `timeoutMs` (a client that connects
 * and says nothing) ends the connection, so idle sockets cannot pile up.
 */
export function readHead(
  socket: Socket,
  maxBytes: number,
  timeoutMs: number,
  done: (outcome: HeadOutcome) => void,
): void {
  let buf: Buffer | null = null;
  let finished = false;
  const finish = (outcome: HeadOutcome): void => {
    if (finished) return;
    finished = true;
    socket.removeListener('data', onData);
    socket.removeListener('timeout', onTimeout);
    socket.removeListener('end', onEnd);
    socket.removeListener('close', onClose);
    socket.setTimeout(0);
    socket.pause();
    done(outcome);
  };
  const onData = (chunk: Buffer): void => {
    const from = buf === null ? 0 : buf.length;
    buf = buf === null ? chunk : Buffer.concat([buf, chunk]);
    const end = findHeadEnd(buf, from);
    if (end < 0 ? buf.length > maxBytes : end > maxBytes) {
      finish({ kind: 'bad', code: 'STREAM_HEADER_TOO_LARGE', reason: 'request head too large' });
      return;
    }
    if (end < 0) return;
    const parsed = parseRequestHead(buf, end);
    finish(
      parsed.ok
        ? { kind: 'head', head: parsed.head, raw: buf }
        : { kind: 'bad', code: 'STREAM_BAD_REQUEST', reason: parsed.reason },
    );
  };
  const onTimeout = (): void => {
    finish({ kind: 'gone' });
    socket.destroy();
  };
  const onEnd = (): void => {
    finish({ kind: 'gone' });
    socket.destroy();
  };
  const onClose = (): void => finish({ kind: 'gone' });
  socket.setTimeout(timeoutMs);
  socket.on('timeout', onTimeout);
  socket.on('end', onEnd);
  socket.on('close', onClose);
  socket.on('data', onData);
}
