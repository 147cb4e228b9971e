import { createServer, type Server, type Socket } from 'node:net';
import { type Logger, LogThrottle, RadioError } from '@radio/core';
import { SchedulerError } from '../errors.ts';
import { type ControlAnswer, renderAnswer } from './answer.ts';
import type { CommandRegistry } from './registry.ts';
import { ControlSession, frame } from './session.ts';

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

/**
 * The line-based TCP control port, framed like Liquidsoap 2.1.3's telnet server (each client is
 * a ControlSession). Limits keep one client from hurting the others: line length, binary data,
 * client count, idle time; a browser tricked into posting here is cut off before anything runs.
 * Each kind of refusal is logged once per client address a minute.
 */
export class ControlServer {
  readonly #options: ControlServerOptions;
  readonly #log: Logger;
  readonly #clients = new Set<Socket>();
  readonly #refusals = new LogThrottle();
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
    const address = socket.remoteAddress ?? 'unknown';
    const log = this.#log.child({ client: clientId });
    this.#clients.add(socket);
    socket.once('close', () => this.#clients.delete(socket));
    socket.setNoDelay(true);
    socket.setTimeout(this.#options.idleTimeoutMs ?? 60_000);
    socket.on('timeout', () => {
      log.debug('idle control client closed');
      socket.destroy();
    });
    new ControlSession(socket, {
      maxLineBytes: this.#options.maxLineBytes ?? 4096,
      run: async (line) => renderAnswer(await this.#run(line, log)),
      refused: (refusal, message) => {
        const held = this.#refusals.take(`${refusal}:${address}`);
        if (held !== null) log.warn({ ip: address, refusal, held }, `control port: ${message}`);
      },
      log,
    });
  }

  async #run(line: string, log: Logger): Promise<ControlAnswer> {
    const space = line.indexOf(' ');
    const name = space < 0 ? line : line.slice(0, space);
    const args = space < 0 ? '' : line.slice(space + 1).trim();
    const command = this.#options.registry.get(name);
    if (!command) return UNKNOWN_COMMAND;
    try {
      return await command.handler(args);
    } catch (error) {
      if (error instanceof RadioError) return `ERROR: ${error.message}`;
      log.error({ err: error, command: name }, 'control command failed');
      return 'ERROR: internal error';
    }
  }
}
