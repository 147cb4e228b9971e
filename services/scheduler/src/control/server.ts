import { createServer, type Server, type Socket } from 'node:net';
import { type Logger, RadioError } from '@radio/core';
import { SchedulerError } from '../errors.ts';
import type { CommandRegistry } from './registry.ts';

export interface ControlServerOptions {
  host: string;
  port: number;
  registry: CommandRegistry;
  logger: Logger;
  /** Connections at once; the next one is told and closed (default 100). */
  maxClients?: number;
  /** Longest line accepted, in bytes without the newline (default 4096). */
  maxLineBytes?: number;
  /** A connection silent this long is closed (default 60 s). */
  idleTimeoutMs?: number;
}

export const UNKNOWN_COMMAND = 'ERROR: unknown command, type "help" to get a list of commands.';
const BYE = 'Bye!\r\n';
/** A client that does not read its answers gets cut off past this much unsent output. */
const MAX_UNSENT_BYTES = 1024 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Liquidsoap's framing: the body, CRLF, then `END` and CRLF (an empty body is `\r\nEND\r\n`). */
export function frame(body: string): string {
  return `${body}\r\nEND\r\n`;
}

/**
 * The line-based TCP control port, framed like Liquidsoap 2.1.3's telnet server: one command a
 * line (LF or CRLF), answers in order, `quit`/`exit` answer `Bye!` and close, an empty line is
 * ignored, and a client that half-closes gets its pending answers before the close. Limits
 * keep one client from hurting the others: line length, binary data, client count, idle time.
 */
export class ControlServer {
  readonly #options: ControlServerOptions;
  readonly #log: Logger;
  readonly #clients = new Set<Socket>();
  #server: Server | null = null;
  #port = 0;
  #nextClientId = 1;

  constructor(options: ControlServerOptions) {
    this.#options = options;
    this.#log = options.logger;
  }

  get port(): number {
    return this.#port;
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  async start(): Promise<number> {
    const server = createServer({ allowHalfOpen: true }, (socket) => this.#accept(socket));
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void =>
        reject(
          new SchedulerError(
            'SCHEDULER_CONTROL_LISTEN_FAILED',
            `control port ${this.#options.host}:${this.#options.port}: ${error.message}`,
            { cause: error },
          ),
        );
      server.once('error', onError);
      server.listen(this.#options.port, this.#options.host, () => {
        server.off('error', onError);
        resolve();
      });
    });
    server.on('error', (error) => this.#log.error({ err: error }, 'control port error'));
    const address = server.address();
    this.#port = typeof address === 'object' && address ? address.port : this.#options.port;
    this.#log.info({ host: this.#options.host, port: this.#port }, 'control port listening');
    return this.#port;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#clients) socket.destroy();
    this.#clients.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #accept(socket: Socket): void {
    const maxClients = this.#options.maxClients ?? 100;
    socket.on('error', () => {}); // a client that vanished is not our error
    if (this.#clients.size >= maxClients) {
      socket.end(frame(`ERROR: too many clients (${maxClients} connected), try again later.`));
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    const clientId = this.#nextClientId++;
    const log = this.#log.child({ client: clientId });
    this.#clients.add(socket);
    socket.once('close', () => this.#clients.delete(socket));
    socket.setNoDelay(true);
    socket.setTimeout(this.#options.idleTimeoutMs ?? 60_000);
    socket.on('timeout', () => {
      log.debug('idle control client closed');
      socket.destroy();
    });

    const maxLine = this.#options.maxLineBytes ?? 4096;
    let pending: Buffer = Buffer.alloc(0);
    let chain: Promise<void> = Promise.resolve();
    let closing = false;

    const send = (text: string): void => {
      if (socket.destroyed) return;
      if (socket.writableLength > MAX_UNSENT_BYTES) {
        log.warn('control client does not read its answers; closed');
        socket.destroy();
        return;
      }
      socket.write(text);
    };
    /** Answers with a last error and closes: the client is not speaking the protocol. */
    const refuse = (message: string): void => {
      closing = true;
      chain = chain.then(() => {
        send(frame(message));
        socket.end();
      });
    };

    socket.on('data', (chunk: Buffer) => {
      if (closing) return;
      pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      let start = 0;
      for (;;) {
        const newline = pending.indexOf(0x0a, start);
        if (newline < 0) break;
        const end = newline > start && pending[newline - 1] === 0x0d ? newline - 1 : newline;
        const raw = pending.subarray(start, end);
        start = newline + 1;
        if (raw.length > maxLine) {
          refuse(`ERROR: line too long (more than ${maxLine} bytes), closing the connection.`);
          return;
        }
        const line = decodeLine(raw);
        if (line === null) {
          refuse('ERROR: binary data is not a command, closing the connection.');
          return;
        }
        if (line === '') continue; // Liquidsoap answers nothing to an empty line
        const name = line.split(' ', 1)[0] as string;
        if (name === 'quit' || name === 'exit') {
          closing = true;
          chain = chain.then(() => {
            send(BYE);
            socket.end();
          });
          return;
        }
        chain = chain.then(async () => send(frame(await this.#run(line, log))));
      }
      pending = start > 0 ? Buffer.from(pending.subarray(start)) : pending;
      if (pending.length > maxLine) {
        refuse(`ERROR: line too long (more than ${maxLine} bytes), closing the connection.`);
      }
    });

    // The client is done sending (`echo help | nc -N`): answer what it asked, then close.
    // Like Liquidsoap, a last line without its newline is not a command.
    socket.on('end', () => {
      closing = true;
      void chain.then(() => {
        if (!socket.destroyed) socket.end();
      });
    });
  }

  async #run(line: string, log: Logger): Promise<string> {
    const space = line.indexOf(' ');
    const name = space < 0 ? line : line.slice(0, space);
    const args = space < 0 ? '' : line.slice(space + 1).trim();
    const command = this.#options.registry.get(name);
    if (!command) return UNKNOWN_COMMAND;
    try {
      return await command.handler(args);
    } catch (error) {
      if (error instanceof RadioError) return `ERROR: ${oneLine(error.message)}`;
      log.error({ err: error, command: name }, 'control command failed');
      return 'ERROR: internal error';
    }
  }
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

function oneLine(message: string): string {
  return message.replace(/[\r\n]+/g, ' ');
}
