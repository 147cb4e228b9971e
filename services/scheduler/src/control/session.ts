import type { Socket } from 'node:net';
import type { Logger } from '@radio/core';
import { isHttpLine } from './cross-protocol.ts';

/** Why a client was cut off: the key its log line is throttled by. */
export type ControlRefusal = 'line-too-long' | 'binary' | 'http';

export interface ControlSessionOptions {
  /** Longest line accepted, in bytes without the newline. */
  maxLineBytes: number;
  /** Runs one command line; resolves to its answer body (escaped, not yet framed). */
  run: (line: string) => Promise<string>;
  /** The client broke the protocol and is being closed (the server logs it, throttled). */
  refused: (refusal: ControlRefusal, message: string) => void;
  log: Logger;
}

const BYE = 'Bye!\r\n';
/** A client that does not read its answers gets cut off past this much unsent output. */
const MAX_UNSENT_BYTES = 1024 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Liquidsoap's framing: the body, CRLF, then `END` and CRLF (an empty body is `\r\nEND\r\n`). */
export function frame(body: string): string {
  return `${body}\r\nEND\r\n`;
}

/** The line as text, or null if it is not text (invalid UTF-8, NUL or other control bytes). */
function decodeLine(raw: Buffer): string | null {
  for (const byte of raw) {
    if ((byte < 0x20 && byte !== 0x09) || byte === 0x7f) return null;
  }
  try {
    return utf8.decode(raw);
  } catch {
    return null;
  }
}

/**
 * One client of the control port: splits what it sends into lines (LF or CRLF), runs them one
 * after the other and sends each answer framed, in order. `quit`/`exit` answer `Bye!` and
 * close; a client that half-closes gets its pending answers first. A line too long, binary
 * data or HTTP closes the connection with an error; on HTTP, lines still waiting to run are
 * dropped too (a browser's request line comes first, so nothing it sends runs).
 */
export class ControlSession {
  readonly #socket: Socket;
  readonly #options: ControlSessionOptions;
  #pending: Buffer = Buffer.alloc(0);
  #chain: Promise<void> = Promise.resolve();
  #closing = false;
  #hostile = false;

  constructor(socket: Socket, options: ControlSessionOptions) {
    this.#socket = socket;
    this.#options = options;
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    // The client is done sending (`echo help | nc -N`): answer what it asked, then close.
    // Like Liquidsoap, a last line without its newline is not a command.
    socket.on('end', () => {
      this.#closing = true;
      void this.#chain.then(() => {
        if (!socket.destroyed) socket.end();
      });
    });
  }

  #receive(chunk: Buffer): void {
    if (this.#closing) return;
    const maxLine = this.#options.maxLineBytes;
    const pending = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const newline = pending.indexOf(0x0a, start);
      if (newline < 0) break;
      const end = newline > start && pending[newline - 1] === 0x0d ? newline - 1 : newline;
      const raw = pending.subarray(start, end);
      start = newline + 1;
      if (!this.#take(raw)) return;
    }
    this.#pending = start > 0 ? Buffer.from(pending.subarray(start)) : pending;
    if (this.#pending.length > maxLine) this.#tooLong();
  }

  /** Checks and queues one line; false when it ends the session. */
  #take(raw: Buffer): boolean {
    if (raw.length > this.#options.maxLineBytes) {
      this.#tooLong();
      return false;
    }
    const line = decodeLine(raw);
    if (line === null) {
      this.#refuse('binary', 'ERROR: binary data is not a command, closing the connection.');
      return false;
    }
    if (isHttpLine(line)) {
      // Commands queued from this very read have not started (they run after it): none will.
      this.#hostile = true;
      this.#refuse('http', 'ERROR: this is the control port, not a web server.');
      return false;
    }
    return this.#queue(line);
  }

  #tooLong(): void {
    const max = this.#options.maxLineBytes;
    this.#refuse(
      'line-too-long',
      `ERROR: line too long (more than ${max} bytes), closing the connection.`,
    );
  }

  /** Queues a command line; false when it ends the session. */
  #queue(line: string): boolean {
    if (line === '') return true; // Liquidsoap answers nothing to an empty line
    const name = line.split(' ', 1)[0] as string;
    if (name === 'quit' || name === 'exit') {
      this.#closing = true;
      this.#chain = this.#chain.then(() => {
        this.#send(BYE);
        this.#socket.end();
      });
      return false;
    }
    this.#chain = this.#chain.then(async () => {
      if (this.#hostile) return;
      this.#send(frame(await this.#options.run(line)));
    });
    return true;
  }

  /** Answers with a last error and closes: the client is not speaking the protocol. */
  #refuse(refusal: ControlRefusal, message: string): void {
    this.#closing = true;
    this.#options.refused(refusal, message);
    this.#chain = this.#chain.then(() => {
      this.#send(frame(message));
      this.#socket.end();
    });
  }

  #send(text: string): void {
    const socket = this.#socket;
    if (socket.destroyed) return;
    if (socket.writableLength > MAX_UNSENT_BYTES) {
      this.#options.log.warn('control client does not read its answers; closed');
      socket.destroy();
      return;
    }
    socket.write(text);
  }
}
