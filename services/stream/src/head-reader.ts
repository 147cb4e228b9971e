import type { Socket } from 'node:net';
import { findHeadEnd, parseRequestHead, type RequestHead } from './request-head.ts';

export type HeadOutcome =
  | { kind: 'head'; head: RequestHead; raw: Buffer }
  | { kind: 'bad'; code: 'STREAM_BAD_REQUEST' | 'STREAM_HEADER_TOO_LARGE'; reason: string }
  /** The head was not complete by its deadline; the connection is closed. */
  | { kind: 'late' }
  | { kind: 'gone' };

/**
 * Reads a new connection's request head, then pauses the socket and hands it on. A head that
 * does not end within `maxBytes` (an endless header) or `timeoutMs` from the start (a client
 * that connects and says nothing, or trickles a byte now and then) ends the connection, so
 * idle sockets cannot pile up. The deadline is absolute: an idle timeout would start again
 * with every byte, and a client sending one every few seconds would hold the socket forever.
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
    clearTimeout(deadline);
    socket.removeListener('data', onData);
    socket.removeListener('end', onEnd);
    socket.removeListener('close', onClose);
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
  const onEnd = (): void => {
    finish({ kind: 'gone' });
    socket.destroy();
  };
  const onClose = (): void => finish({ kind: 'gone' });
  const deadline = setTimeout(() => {
    finish({ kind: socket.destroyed ? 'gone' : 'late' });
    socket.destroy();
  }, timeoutMs);
  socket.on('end', onEnd);
  socket.on('close', onClose);
  socket.on('data', onData);
}
