import { createHash, randomBytes } from 'node:crypto';
import { type IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '@radio/core';
import type { Request, RequestHandler, Response } from 'express';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import type { DjAccountRow, DjAccountsRepository } from './dj-accounts.repository.ts';
import { HarborRefusedError, openHarborSource } from './harbor-source.ts';

/** Where the browser opens the go-live WebSocket, below the api's base path. */
export const GO_LIVE_PATH = '/live/ws';
/** A token is spent by the one connection it was minted for, within seconds. */
const TOKEN_TTL_MS = 30_000;
/** A browser sends a MediaRecorder chunk every few hundred ms: tens of kB at most. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Audio the live input has not taken yet beyond this: it is stuck, the DJ is told. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

/** WebSocket close codes the page reads (4000-4999 are the application's own). */
export const CLOSE_CODES = { refused: 4001, ended: 4002, stuck: 4003 } as const;

export interface GoLiveDeps {
  basePath: string;
  liveUrl: string;
  allowedOrigins: readonly string[];
  /** The api's session handlers (cookie, store, user), run on the upgrade request. */
  auth: readonly RequestHandler[];
  accounts: DjAccountsRepository;
  logger: Logger;
}

/** Answers an upgrade request with an HTTP error in the api's shape and closes it. */
function refuse(socket: Duplex, error: ApiError): void {
  const body = JSON.stringify({ error: { code: error.code, message: error.message } });
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** Browsers always send Origin on a WebSocket: another site's page must not use the cookie. */
function sameOrigin(req: IncomingMessage, allowed: readonly string[]): boolean {
  const origin = req.headers.origin?.toLowerCase();
  if (origin === undefined) return true;
  const host = req.headers.host?.toLowerCase();
  const own = origin.replace(/^https?:\/\//, '') === host;
  return own || allowed.some((each) => each.replace(/\/+$/, '').toLowerCase() === origin);
}

/** Runs the session middleware on the upgrade request; resolves with its user (or null). */
async function sessionUser(
  req: IncomingMessage,
  auth: readonly RequestHandler[],
): Promise<AuthUser | null> {
  // The handlers may set a cookie on this answer: it is never sent, as none is on an upgrade.
  const res = new ServerResponse(req) as unknown as Response;
  const request = req as Request;
  for (const handler of auth) {
    await new Promise<void>((resolve, reject) => {
      handler(request, res, (error?: unknown) => (error ? reject(error) : resolve()));
    });
  }
  return request.user ?? null;
}

/**
 * The browser's "Go live": a WebSocket on the api's origin, authenticated by the session cookie
 * and the dj role, whose binary messages (MediaRecorder's WebM/Opus) go into the scheduler's
 * live input over a source connection logged in with a one-time token.
 */
export class GoLiveSockets {
  readonly #deps: GoLiveDeps;
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  readonly #log: Logger;

  constructor(deps: GoLiveDeps) {
    this.#deps = deps;
    this.#log = deps.logger;
  }

  /** The http server's `upgrade` listener. */
  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== `${this.#deps.basePath}${GO_LIVE_PATH}`) {
      refuse(socket, new ApiError('API_NOT_FOUND'));
      return;
    }
    socket.on('error', () => socket.destroy());
    this.#admit(req).then(
      (account) => this.#wss.handleUpgrade(req, socket, head, (ws) => this.#relay(ws, account)),
      (error: unknown) => {
        const refusal = error instanceof ApiError ? error : new ApiError('API_INTERNAL');
        if (!(error instanceof ApiError)) this.#log.error({ err: error }, 'go-live upgrade failed');
        refuse(socket, refusal);
      },
    );
  };

  /** Closes every open go-live connection (the api is stopping). */
  close(): void {
    for (const ws of this.#wss.clients) ws.close(1001, 'the api is stopping');
    this.#wss.close();
  }

  async #admit(req: IncomingMessage): Promise<DjAccountRow> {
    if (!sameOrigin(req, this.#deps.allowedOrigins)) throw new ApiError('API_CROSS_ORIGIN');
    const user = await sessionUser(req, this.#deps.auth);
    if (!user) throw new ApiError('API_UNAUTHENTICATED');
    if (user.role !== 'dj' && user.role !== 'admin') {
      throw new ApiError(
        'API_FORBIDDEN',
        `going live needs the role dj or admin; you are ${user.role}`,
      );
    }
    const account = await this.#deps.accounts.find(user.id);
    if (!account) {
      throw new ApiError(
        'API_DJ_ACCOUNT_NOT_FOUND',
        'you have no broadcast credentials yet: an admin gives them on the Admin page',
      );
    }
    if (Number(account.enabled) !== 1) throw new ApiError('API_DJ_DISABLED');
    return account;
  }

  async #mintToken(userId: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const hash = createHash('sha256').update(token).digest('hex');
    const expires = new Date(Date.now() + TOKEN_TTL_MS).toISOString();
    await this.#deps.accounts.addToken(hash, userId, expires);
    return token;
  }

  #relay(ws: WebSocket, account: DjAccountRow): void {
    const log = this.#log.child({ dj: account.broadcast_username });
    let harbor: Socket | null = null;
    const early: Buffer[] = [];
    let earlyBytes = 0;
    const send = (chunk: Buffer) => {
      if (!harbor) {
        earlyBytes += chunk.length;
        if (earlyBytes > MAX_PENDING_BYTES)
          ws.close(CLOSE_CODES.stuck, 'the live input is not answering');
        else early.push(chunk);
        return;
      }
      harbor.write(chunk);
      if (harbor.writableLength > MAX_PENDING_BYTES) {
        ws.close(CLOSE_CODES.stuck, 'the live input is not taking the audio fast enough');
      }
    };
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (!isBinary) return;
      send(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer));
    });
    ws.on('close', () => {
      harbor?.end();
      log.info('go-live connection closed');
    });
    ws.on('error', (error) => log.debug({ err: error }, 'go-live socket error'));

    this.#connectHarbor(account)
      .then((socket) => {
        if (ws.readyState !== WebSocket.OPEN) {
          socket.destroy();
          return;
        }
        harbor = socket;
        socket.resume();
        socket.on('error', (error) => log.debug({ err: error }, 'live input connection error'));
        socket.on('close', () =>
          ws.close(CLOSE_CODES.ended, 'the live input ended the connection'),
        );
        for (const chunk of early.splice(0)) socket.write(chunk);
        ws.send(JSON.stringify({ type: 'connected' }));
        log.info('go-live connected to the live input');
      })
      .catch((error: unknown) => {
        const message = error instanceof HarborRefusedError ? error.message : String(error);
        const status = error instanceof HarborRefusedError ? error.status : 0;
        log.warn({ status, reason: message }, 'the live input refused the go-live connection');
        ws.send(JSON.stringify({ type: 'refused', status, message }));
        // A close reason is limited to 123 bytes.
        ws.close(CLOSE_CODES.refused, Buffer.from(message).subarray(0, 120).toString());
      });
  }

  async #connectHarbor(account: DjAccountRow): Promise<Socket> {
    const token = await this.#mintToken(account.user_id);
    return openHarborSource({
      liveUrl: this.#deps.liveUrl,
      username: account.broadcast_username,
      password: `token:${token}`,
      contentType: 'audio/webm',
      name: account.display_name,
      timeoutMs: 10_000,
    });
  }
}
