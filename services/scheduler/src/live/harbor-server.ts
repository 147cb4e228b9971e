import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { type FailureLimiter, type Logger, LogThrottle, type MetricsEndpoint } from '@radio/core';
import { ClientShare } from './client-share.ts';
import type { DjCredentials, SourceLogin } from './dj-credentials.ts';
import { LIVE_MOUNT, type LiveInput } from './live-input.ts';
import { type RequestHead, readHead } from './request-head.ts';
import { ACCEPTED_TYPES, formatOfType } from './source-format.ts';

export interface HarborOptions {
  host: string;
  port: number;
  input: LiveInput;
  credentials: DjCredentials;
  limiter: FailureLimiter;
  logger: Logger;
  /** A request head must be complete within this (slowloris). */
  headerTimeoutMs: number;
  maxHeadBytes?: number;
  /** Connections at once, all clients together (default 64). */
  maxConnections?: number;
  /** Connections at once from one address (default 4: a source and its title updates). */
  maxConnectionsPerClient?: number;
  /** Each kind of refusal is logged once per address in this interval (default 60 s). */
  logIntervalMs?: number;
  /** The scheduler's Prometheus metrics, served at GET /metrics (the port's one plain page). */
  metrics?: MetricsEndpoint | undefined;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};

/** Why a client was refused: the key its log line is throttled by (with its address). */
type Refusal =
  | 'crowd'
  | 'head-timeout'
  | 'bad-request'
  | 'unknown-mount'
  | 'content-type'
  | 'login'
  | 'login-limit';

function reply(
  socket: Socket,
  status: number,
  body: string,
  extra: string[] = [],
  type = body.startsWith('<?xml') ? 'text/xml' : 'text/plain; charset=utf-8',
): void {
  const head = [
    `HTTP/1.0 ${status} ${STATUS_TEXT[status] ?? 'Error'}`,
    `Content-Type: ${type}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...extra,
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  // A client still sending (an endless header, a refused body) is read into nothing for a
  // moment, so it gets the answer rather than a reset, then cut off.
  socket.resume();
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** User and password of a Basic Authorization header (or butt's `?pass=` for updinfo). */
function credentialsOf(head: RequestHead): { user: string; password: string } | null {
  const auth = head.headers.get('authorization');
  const match = auth ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(auth) : null;
  if (match) {
    const text = Buffer.from(match[1] as string, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon >= 0) return { user: text.slice(0, colon), password: text.slice(colon + 1) };
  }
  const pass = head.query.get('pass');
  return pass ? { user: 'source', password: pass } : null;
}

/**
 * The live port: an Icecast-compatible source endpoint for mount `/live` (HTTP PUT and the
 * legacy SOURCE method) and its `/admin/metadata?mode=updinfo` title updates, as butt, Mixxx,
 * ffmpeg and Liquidsoap send them to Icecast. Every refusal has its status and a reason logged
 * with the address (once per address and interval, so a flood writes a line a minute); one
 * address holds at most its share of the connections; nothing a client sends reaches the
 * playout but decoded audio.
 */
export class HarborServer {
  readonly #options: HarborOptions;
  readonly #log: Logger;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #share: ClientShare;
  readonly #refusals: LogThrottle;

  constructor(options: HarborOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#share = new ClientShare(options.maxConnectionsPerClient ?? 4);
    this.#refusals = new LogThrottle(options.logIntervalMs);
    this.#server = createServer((socket) => this.#connection(socket));
    this.#server.maxConnections = options.maxConnections ?? 64;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo | null)?.port ?? 0;
  }

  async start(): Promise<void> {
    const { host, port } = this.#options;
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen({ host, port }, () => {
        this.#server.removeListener('error', reject);
        resolve();
      });
    });
    this.#server.on('error', (error) => this.#log.error({ err: error }, 'live port error'));
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  /** Logs a refusal unless this address was refused the same way within the interval. */
  #refused(refusal: Refusal, address: string, fields: object, message: string): void {
    const held = this.#refusals.take(`${refusal} ${address}`);
    if (held !== null) this.#log.warn({ ...fields, ip: address, refusal, held }, message);
  }

  #connection(socket: Socket): void {
    const address = socket.remoteAddress ?? 'unknown';
    this.#sockets.add(socket);
    socket.on('error', (error) =>
      this.#log.debug({ err: error, ip: address }, 'live socket error'),
    );
    const verdict = this.#share.open(address);
    socket.once('close', () => {
      this.#sockets.delete(socket);
      this.#share.release(address);
    });
    if (verdict !== 'serve') {
      const most = this.#share.perClient;
      this.#refused('crowd', address, { most }, 'live port: too many connections from one address');
      if (verdict === 'drop') socket.destroy();
      else reply(socket, 429, `too many connections from your address (${most} at most)\n`);
      return;
    }
    const { headerTimeoutMs, maxHeadBytes } = this.#options;
    readHead(
      socket,
      { maxBytes: maxHeadBytes ?? 16 * 1024, timeoutMs: headerTimeoutMs },
      (outcome) => {
        if (outcome.kind === 'gone') return;
        if (outcome.kind === 'timeout') {
          this.#refused(
            'head-timeout',
            address,
            {},
            `live port: no complete request head in ${headerTimeoutMs / 1000} s; closed`,
          );
          socket.destroy();
        } else if (outcome.kind === 'bad') {
          this.#refused(
            'bad-request',
            address,
            { reason: outcome.reason },
            'live port: bad request',
          );
          reply(socket, outcome.status, `${outcome.reason}\n`);
        } else {
          this.#route(socket, address, outcome.head).catch((error: unknown) => {
            this.#log.error({ err: error, ip: address }, 'live port: request failed');
            if (!socket.destroyed) reply(socket, 500, 'internal error\n');
          });
        }
      },
    );
  }

  async #route(socket: Socket, address: string, head: RequestHead): Promise<void> {
    const { method, path } = head;
    if (method === 'GET' && path === '/admin/metadata')
      return this.#metadata(socket, address, head);
    if (method === 'GET' && path === '/metrics' && this.#options.metrics) {
      const answer = await this.#options.metrics.answer(head.headers.get('authorization'), address);
      const headers = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`);
      reply(socket, answer.status, answer.body, headers, answer.contentType);
      return;
    }
    if (method !== 'SOURCE' && method !== 'PUT') {
      reply(socket, method === 'GET' ? 404 : 405, 'the live input takes SOURCE or PUT on /live\n');
      return;
    }
    if (path !== LIVE_MOUNT) {
      this.#refused('unknown-mount', address, { path }, 'live port: source for an unknown mount');
      reply(socket, 404, `no mount ${path}: DJs broadcast to ${LIVE_MOUNT}\n`);
      return;
    }
    const contentType = head.headers.get('content-type');
    const declared = formatOfType(contentType);
    if (contentType && !declared) {
      this.#refused(
        'content-type',
        address,
        { contentType },
        'live source refused: unsupported Content-Type',
      );
      const accepted = Object.keys(ACCEPTED_TYPES).join(', ');
      reply(socket, 415, `Content-Type ${contentType} is not taken; send one of ${accepted}\n`);
      return;
    }
    const login = await this.#login(socket, address, head);
    if (!login) return;
    const admitted = this.#options.input.admit({
      dj: login.dj,
      socket,
      address,
      declared,
      chunked: head.headers.get('transfer-encoding')?.toLowerCase().includes('chunked') === true,
    });
    if (!admitted.ok) {
      this.#log.warn(
        { ip: address, dj: login.dj.username, reason: admitted.reason },
        'live source refused',
      );
      reply(socket, 403, `${admitted.reason}\n`);
      return;
    }
    // ffmpeg asks `Expect: 100-continue` and waits for the interim answer, as Icecast gives it.
    const expect = head.headers.get('expect')?.toLowerCase().includes('100-continue') === true;
    socket.write(
      expect ? 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\n\r\n' : 'HTTP/1.0 200 OK\r\n\r\n',
    );
    admitted.session.start(head.rest);
  }

  /** Checks the credentials (with the rate limit); answers and returns null when refused. */
  async #login(
    socket: Socket,
    address: string,
    head: RequestHead,
  ): Promise<Extract<SourceLogin, { ok: true }> | null> {
    const { limiter } = this.#options;
    const wait = limiter.blockedFor(address);
    if (wait > 0) {
      this.#refused('login-limit', address, {}, 'live source refused: too many failed logins');
      reply(socket, 429, 'too many failed logins; try later\n', [
        `Retry-After: ${Math.ceil(wait / 1000)}`,
      ]);
      return null;
    }
    const credentials = credentialsOf(head);
    const login: SourceLogin = credentials
      ? await this.#options.credentials.check(credentials.user, credentials.password)
      : { ok: false, status: 401, reason: 'no credentials' };
    if (login.ok) {
      limiter.succeed(address);
      return login;
    }
    if (login.status === 401) limiter.fail(address);
    this.#refused(
      'login',
      address,
      { user: credentials?.user ?? null, reason: login.reason, status: login.status },
      'live source login refused',
    );
    const challenge = login.status === 401 ? ['WWW-Authenticate: Basic realm="Live input"'] : [];
    reply(
      socket,
      login.status,
      `${login.status === 401 ? 'authentication required' : login.reason}\n`,
      challenge,
    );
    return null;
  }

  async #metadata(socket: Socket, address: string, head: RequestHead): Promise<void> {
    const { query } = head;
    if (query.get('mode') !== 'updinfo' || (query.get('mount') ?? LIVE_MOUNT) !== LIVE_MOUNT) {
      reply(socket, 400, 'only mode=updinfo on mount=/live\n');
      return;
    }
    const login = await this.#login(socket, address, head);
    if (!login) return;
    const song = (query.get('song') ?? '').trim().slice(0, 500);
    if (!this.#options.input.setTitle(login.dj.id, song || null)) {
      reply(socket, 400, `${login.dj.name} has no source connected to ${LIVE_MOUNT}\n`);
      return;
    }
    this.#log.info({ dj: login.dj.username, title: song }, 'live title update');
    reply(
      socket,
      200,
      '<?xml version="1.0"?>\n<iceresponse><message>Metadata update successful</message><return>1</return></iceresponse>\n',
    );
  }
}
