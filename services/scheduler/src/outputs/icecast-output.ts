import { type ClientRequest, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Logger } from '@radio/core';
import { USER_AGENT } from '../version.ts';
import { oneLine } from './one-line.ts';

export interface IcecastOutputOptions {
  /** The stream server's base URL (STREAM_URL). */
  url: URL;
  /** `/radio.mp3` … */
  mount: string;
  /** Source credentials: user `source` and SOURCE_PASSWORD, as Icecast expects. */
  user?: string;
  password: string;
  /** Tried for a metadata update the stream server refused with the source credentials. */
  admin?: { user: string; password: string } | undefined;
  contentType: string;
  /** `ice-*` headers of the source request. */
  headers: Readonly<Record<string, string>>;
  logger: Logger;
  /** Called each time the stream server accepted the source (first time and after reconnects). */
  onConnected?: () => void;
  /** Audio waiting in the socket beyond this is dropped rather than queued (default 128 KiB). */
  maxBacklogBytes?: number;
  /** A connection that stays over its backlog this long is dropped and made again. */
  stallTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Reconnect delay: starts at min, doubles up to max. */
  backoffMs?: { min: number; max: number };
}

export interface OutputStatus {
  readonly mount: string;
  readonly connected: boolean;
  readonly connects: number;
  readonly bytesSent: number;
  readonly bytesDropped: number;
  readonly lastError: string | null;
}

/**
 * One Icecast source connection: `PUT <mount>` with `source:<password>`, the `ice-*` headers,
 * then the encoded audio as the raw request body (no chunked encoding: Icecast 2.4 does not
 * accept it). It reconnects with a capped backoff for as long as it runs; while it is down the
 * audio it is given is dropped, so a stream server that is away never holds up the playout.
 */
export class IcecastOutput {
  readonly #options: IcecastOutputOptions;
  readonly #log: Logger;
  readonly #maxBacklog: number;
  readonly #stallMs: number;
  readonly #backoff: { min: number; max: number };
  #socket: Socket | null = null;
  #streaming = false;
  #delay: number;
  #timer: NodeJS.Timeout | null = null;
  #stopped = true;
  #connects = 0;
  #bytesSent = 0;
  #bytesDropped = 0;
  #lastError: string | null = null;
  #backlogSince: number | null = null;
  #metadataBusy = false;
  #metadataPending: string | null = null;
  #metadataIdle: Promise<void> = Promise.resolve();
  #metadataRequest: ClientRequest | null = null;

  constructor(options: IcecastOutputOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#maxBacklog = options.maxBacklogBytes ?? 128 * 1024;
    this.#stallMs = options.stallTimeoutMs ?? 10_000;
    this.#backoff = options.backoffMs ?? { min: 250, max: 2000 };
    this.#delay = this.#backoff.min;
  }

  get connected(): boolean {
    return this.#streaming;
  }

  status(): OutputStatus {
    return {
      mount: this.#options.mount,
      connected: this.#streaming,
      connects: this.#connects,
      bytesSent: this.#bytesSent,
      bytesDropped: this.#bytesDropped,
      lastError: this.#lastError,
    };
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#connect();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const socket = this.#socket;
    this.#socket = null;
    this.#streaming = false;
    this.#metadataRequest?.destroy();
    if (socket && !socket.destroyed) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.destroy();
      });
    }
    await this.#metadataIdle;
  }

  /** Sends encoded audio if connected and keeping up; otherwise drops it. Never blocks. */
  write(data: Buffer): boolean {
    const socket = this.#socket;
    if (!this.#streaming || !socket || socket.destroyed) {
      this.#bytesDropped += data.length;
      return false;
    }
    if (socket.writableLength > this.#maxBacklog) {
      this.#bytesDropped += data.length;
      const now = Date.now();
      this.#backlogSince ??= now;
      if (now - this.#backlogSince > this.#stallMs) {
        this.#log.warn('stream server stopped reading; reconnecting');
        socket.destroy(new Error('stream server stopped reading'));
      }
      return false;
    }
    this.#backlogSince = null;
    socket.write(data);
    this.#bytesSent += data.length;
    return true;
  }

  /**
   * Sets the stream title (`/admin/metadata?mode=updinfo`). Only the latest title matters:
   * while one update is in flight, newer ones replace each other. Never rejects. Control
   * characters (a tag's line break) become spaces.
   */
  updateMetadata(song: string): void {
    if (this.#stopped) return;
    this.#metadataPending = oneLine(song);
    if (this.#metadataBusy) return;
    this.#metadataBusy = true;
    this.#metadataIdle = this.#drainMetadata();
  }

  async #drainMetadata(): Promise<void> {
    try {
      while (this.#metadataPending !== null && !this.#stopped) {
        const song = this.#metadataPending;
        this.#metadataPending = null;
        const status = await this.#sendMetadata(song, {
          user: this.#options.user ?? 'source',
          password: this.#options.password,
        });
        if ((status === 401 || status === 403) && this.#options.admin) {
          await this.#sendMetadata(song, this.#options.admin);
        }
      }
    } finally {
      this.#metadataBusy = false;
    }
  }

  #sendMetadata(song: string, credentials: { user: string; password: string }): Promise<number> {
    const { url, mount } = this.#options;
    const query = new URLSearchParams({ mode: 'updinfo', mount, song, charset: 'UTF-8' });
    const target = new URL(`/admin/metadata?${query.toString().replace(/\+/g, '%20')}`, url);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const req = request(
        target,
        {
          method: 'GET',
          agent: false,
          timeout: 5000,
          headers: {
            Authorization: basic(credentials.user, credentials.password),
            'User-Agent': USER_AGENT,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) this.#log.debug({ song }, 'stream title sent');
            else this.#log.warn({ status, song }, 'stream server refused the title update');
            resolve(status);
          });
          res.on('error', () => resolve(0));
        },
      );
      this.#metadataRequest = req;
      req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
      req.on('error', (error) => {
        if (!this.#stopped) this.#log.warn({ err: error, song }, 'title update failed');
        resolve(0);
      });
      req.on('close', () => {
        if (this.#metadataRequest === req) this.#metadataRequest = null;
        resolve(0);
      });
      req.end();
    });
  }

  #connect(): void {
    if (this.#stopped) return;
    const { url, mount, contentType, headers } = this.#options;
    const secure = url.protocol === 'https:';
    const port = Number(url.port) || (secure ? 443 : 80);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = secure
      ? tlsConnect({ host, port, servername: host })
      : netConnect({ host, port });
    this.#socket = socket;
    this.#streaming = false;
    let head = '';
    let accepted = false;
    const timer = setTimeout(
      () => socket.destroy(new Error('no answer from the stream server')),
      this.#options.connectTimeoutMs ?? 5000,
    );

    socket.once(secure ? 'secureConnect' : 'connect', () => {
      socket.setNoDelay(true);
      socket.setKeepAlive(true, 10_000);
      const lines = [
        `PUT ${mount} HTTP/1.1`,
        `Host: ${url.host}`,
        `Authorization: ${basic(this.#options.user ?? 'source', this.#options.password)}`,
        `User-Agent: ${USER_AGENT}`,
        `Content-Type: ${contentType}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${oneLine(value)}`),
        'Expect: 100-continue',
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });

    socket.on('data', (chunk: Buffer) => {
      if (head.length > 16_384) return; // after the answer we read and ignore whatever comes
      head += chunk.toString('latin1');
      // Answers come one after another: `100 Continue` first (Icecast), then the final one.
      for (;;) {
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const response = head.slice(0, end);
        head = head.slice(end + 4);
        const status = Number(/^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(response)?.[1] ?? 0);
        if (status >= 100 && status < 300) {
          if (!accepted) {
            accepted = true;
            clearTimeout(timer);
            this.#onAccepted();
          }
          continue;
        }
        const reason = response.split('\r\n')[0] ?? `status ${status}`;
        socket.destroy(new Error(`stream server refused the source: ${reason}`));
        return;
      }
    });
    socket.on('error', (error) => {
      this.#lastError = error.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const wasStreaming = this.#streaming && this.#socket === socket;
      if (this.#socket === socket) {
        this.#socket = null;
        this.#streaming = false;
      }
      if (this.#stopped) return;
      if (wasStreaming) this.#log.warn({ reason: this.#lastError }, 'source connection lost');
      else this.#log.debug({ reason: this.#lastError }, 'source connection failed');
      this.#scheduleReconnect(wasStreaming);
    });
  }

  #onAccepted(): void {
    this.#streaming = true;
    this.#connects += 1;
    this.#backlogSince = null;
    this.#delay = this.#backoff.min;
    this.#lastError = null;
    this.#log.info({ connects: this.#connects }, 'connected to the stream server');
    this.#options.onConnected?.();
  }

  #scheduleReconnect(immediate: boolean): void {
    if (this.#timer || this.#stopped) return;
    const delay = immediate ? this.#backoff.min : this.#delay;
    if (!immediate) this.#delay = Math.min(this.#delay * 2, this.#backoff.max);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#connect();
    }, delay);
  }
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
