import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { hostname as machineName } from 'node:os';
import {
  type Bus,
  componentLogger,
  FailureLimiter,
  type Logger,
  localUrl,
  normalizeAddress,
  type Service,
  TrustedProxies,
} from '@radio/core';
import { AdminActions } from './admin/actions.ts';
import { ClientConnections } from './client-connections.ts';
import type { ServerContext } from './context.ts';
import { type StreamErrorCode, StreamStateError } from './errors.ts';
import { readHead } from './head-reader.ts';
import { HLS_PREFIX, serveHls } from './hls/serve.ts';
import { HlsService } from './hls/service.ts';
import { errorReply, type Reply, sendReply } from './http-reply.ts';
import { routeHttpRequest, routeLabel } from './http-routes.ts';
import { serveListener } from './listener-admission.ts';
import { ServerLogs } from './logs.ts';
import { StreamMetrics } from './metrics.ts';
import { MountRegistry } from './mount-registry.ts';
import { type ResolvedOptions, resolveOptions, type StreamServerOptions } from './options.ts';
import { isPublicPage } from './public-routes.ts';
import { EdgeDirectory } from './relay/edge-directory.ts';
import { EdgeNetwork } from './relay/network.ts';
import { hlsOverflow } from './relay/overflow.ts';
import type { RequestHead } from './request-head.ts';
import { clientAddress, hlsSessionEnded } from './sessions/listener-sessions.ts';
import { SessionRecorder, type SessionRecorderStats } from './sessions/session-recorder.ts';
import { serveSource } from './source.ts';
import { ListenerCountPublisher, type ServerSnapshot, ServerStats } from './stats.ts';
import { ListenerSweep } from './sweep.ts';

export interface StreamServerDeps {
  logger: Logger;
  /** Listener counts and source events go here; the server runs without one. */
  bus?: Bus | undefined;
}

/**
 * The stream server. `start` listens (rejecting if the port cannot be bound); `close`
 * disconnects everyone and stops listening.
 */
export interface StreamServer extends Service {
  /** The port actually listened on (useful with port 0); 0 until started. */
  readonly port: number;
  /** `http://host:port` to reach it (the public URL when one is configured); '' until started. */
  readonly url: string;
  /** The current stats, as stats.xml shows them (`includeIdle` adds mounts without a source). */
  snapshot(includeIdle?: boolean): ServerSnapshot;
  /** Sets a mount's title as `/admin/metadata?mode=updinfo` does; false if it has no source. */
  setMetadata(mount: string, title: string): boolean;
  /** The finished listener sessions' way to the api: waiting, sent, dropped, failed batches. */
  sessionStats(): SessionRecorderStats;
}

/** A request head may be this big (what Node's HTTP parser allows too). */
const MAX_HEAD_BYTES = 16 * 1024;

function ignoreError(): void {}

/**
 * The stream server: one listening socket for everything. Each new connection's request head
 * is read here first: SOURCE/PUT go to a source, GET/HEAD/OPTIONS on a mount to a listener
 * (both served from the raw socket), and the rest (/admin/, status documents, health) is
 * handed to node:http with the bytes put back.
 */
class StreamServerImpl implements StreamServer {
  readonly #ctx: ServerContext;
  readonly #actions: AdminActions;
  readonly #http: http.Server;
  readonly #httpConnection: (socket: Socket) => void;
  readonly #sockets = new Set<Socket>();
  readonly #connections: ClientConnections;
  readonly #publisher: ListenerCountPublisher;
  readonly #sweep: ListenerSweep;
  readonly #network: EdgeNetwork;
  readonly #hls: HlsService;
  readonly #metrics: StreamMetrics;
  #started = false;
  /** Set while `listen` is under way, so a close in that time waits for it. */
  #listening: Promise<void> | null = null;
  #closing: Promise<void> | null = null;
  #port = 0;
  #publicBase = '';

  constructor(options: ResolvedOptions, deps: StreamServerDeps) {
    const log = componentLogger(deps.logger, 'server');
    const bus = deps.bus ?? null;
    const logs = new ServerLogs(options.dataDir, options.logFileBytes, deps.logger);
    const stats = new ServerStats();
    const sessions = new SessionRecorder(options.sessions, {
      bus,
      log: componentLogger(deps.logger, 'sessions'),
    });
    const hls = new HlsService(
      options.hls,
      componentLogger(deps.logger, 'hls'),
      (path, target) => hlsOverflow(this.#ctx, path, target),
      (session, endedAt) => hlsSessionEnded(sessions, session, endedAt),
    );
    this.#hls = hls;
    const mounts = new MountRegistry({
      hls,
      options,
      log,
      logs,
      stats,
      bus,
      listenersChanged: () => this.#publisher.changed(),
    });
    let nextId = 1;
    const edges = new EdgeDirectory(options.edgeReportMs * 3, () => this.#publisher.changed());
    this.#ctx = {
      options,
      rootLog: deps.logger,
      log,
      logs,
      stats,
      mounts,
      edges,
      proxies: new TrustedProxies(options.trustedProxies),
      logins: new FailureLimiter(),
      sessions,
      nextId: () => nextId++,
      elsewhere: (path) => this.#network.elsewhere(path),
    };
    this.#connections = new ClientConnections(options.maxConnectionsPerClient);
    this.#actions = new AdminActions(this.#ctx, this);
    this.#metrics = new StreamMetrics({
      snapshot: () => this.#actions.snapshot(true),
      sessions: () => sessions.stats(),
      login: { user: options.adminUser, password: options.adminPassword },
      bus,
    });
    this.#publisher = new ListenerCountPublisher(bus, log, () => this.#actions.listenerCounts());
    this.#sweep = new ListenerSweep(options, log, () => mounts.values());
    this.#network = new EdgeNetwork(this.#ctx, {
      bus,
      directory: edges,
      log: componentLogger(deps.logger, 'relay'),
      changed: () => this.#publisher.changed(),
    });
    this.#http = http.createServer(
      {
        requireHostHeader: false,
        joinDuplicateHeaders: true,
        maxHeaderSize: MAX_HEAD_BYTES,
        headersTimeout: options.headerTimeoutMs,
        // Only requests handed to node:http are timed (admin and status pages); streams are
        // served from the raw socket and never see these timeouts.
        requestTimeout: 30_000,
        keepAliveTimeout: 5000,
        connectionsCheckingInterval: 1000,
      },
      (req, res) => this.#onHttpRequest(req, res),
    );
    this.#http.timeout = 0;
    // Take over new connections before node:http sees them; keep its own handler for the
    // requests it is given.
    const [httpConnection] = this.#http.listeners('connection') as ((socket: Socket) => void)[];
    if (!httpConnection) throw new Error('node:http has no connection listener');
    this.#httpConnection = httpConnection;
    this.#http.removeAllListeners('connection');
    this.#http.on('connection', (socket: Socket) => this.#onConnection(socket));
    this.#http.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      const code: StreamErrorCode =
        error.code === 'HPE_HEADER_OVERFLOW' ? 'STREAM_HEADER_TOO_LARGE' : 'STREAM_BAD_REQUEST';
      if (socket.writable && error.code !== 'ECONNRESET') this.#reply(socket, errorReply(code));
      else socket.destroy();
    });
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return this.#publicBase;
  }

  async start(): Promise<void> {
    if (this.#started || this.#closing) {
      throw new StreamStateError(
        'this stream server was started or closed before; create a new one',
      );
    }
    this.#started = true;
    this.#listening = this.#listen();
    try {
      await this.#listening;
    } catch (error) {
      this.#listening = null;
      await this.close();
      throw error;
    }
    this.#listening = null;
  }

  async #listen(): Promise<void> {
    const { host, port, listenBacklog, publicUrl, hostname } = this.#ctx.options;
    this.#ctx.logs.open();
    // Proxies named by host (`caddy`, `lb`) are trusted from the first connection on.
    await this.#ctx.proxies.start();
    await new Promise<void>((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen({ host, port, backlog: listenBacklog }, () => {
        this.#http.removeListener('error', reject);
        resolve();
      });
    });
    this.#http.on('error', (error) => this.#ctx.log.error({ err: error }, 'server socket error'));
    this.#port = (this.#http.address() as AddressInfo).port;
    this.#publicBase =
      publicUrl ?? (hostname ? `http://${hostname}:${this.#port}` : localUrl(this.#http.address()));
    this.#ctx.mounts.open(this.#publicBase);
    this.#sweep.start();
    this.#network.start(this.#publicBase, this.#port);
    this.#hls.start();
    this.#ctx.sessions.start(`${machineName()}:${this.#port}`);
    this.#metrics.start();
    this.#publisher.publishNow();
    this.#ctx.logs.event('info', 'main', `server started on ${this.#publicBase}`);
  }

  snapshot(includeIdle = false): ServerSnapshot {
    return this.#actions.snapshot(includeIdle);
  }

  setMetadata(mount: string, title: string): boolean {
    return this.#actions.setMetadata(mount, title);
  }

  sessionStats(): SessionRecorderStats {
    return this.#ctx.sessions.stats();
  }

  // ---- connections ---------------------------------------------------------------------------

  #onConnection(socket: Socket): void {
    if (this.#closing) {
      socket.destroy();
      return;
    }
    const { stats } = this.#ctx;
    stats.record('connection-opened');
    this.#sockets.add(socket);
    socket.on('error', ignoreError);
    socket.once('close', () => {
      stats.record('connection-closed');
      this.#sockets.delete(socket);
    });
    const peer = socket.remoteAddress;
    if (peer === undefined) {
      socket.destroy(); // reset before we saw it
      return;
    }
    // Behind a trusted proxy the client is known once its request names it (#readRequest).
    const viaProxy = this.#ctx.proxies.trusts(peer);
    if (!viaProxy && !this.#admitClient(socket, normalizeAddress(peer))) return;
    this.#readRequest(socket, !viaProxy);
  }

  /** Counts the connection as `client`'s, or refuses it (429) when the client has its share. */
  #admitClient(socket: Socket, client: string): boolean {
    if (this.#connections.take(client, socket)) return true;
    const max = this.#ctx.options.maxConnectionsPerClient;
    this.#ctx.logs.refusal('server', 'too many connections from one address: refused', client, {
      max,
    });
    this.#reply(socket, errorReply('STREAM_CLIENT_LIMIT'));
    return false;
  }

  /**
   * Reads a request head and routes it (again for each request of a kept-alive HLS client).
   * `counted`: the connection already counts as its client's (see ClientConnections).
   */
  #readRequest(socket: Socket, counted: boolean): void {
    const { stats, options, log } = this.#ctx;
    readHead(socket, MAX_HEAD_BYTES, options.headerTimeoutMs, (outcome) => {
      if (outcome.kind === 'gone') return;
      if (outcome.kind === 'late') {
        const ip = socket.remoteAddress ?? '-';
        this.#ctx.logs.refusal('server', 'request head not complete in time: closed', ip, {
          timeoutMs: options.headerTimeoutMs,
        });
        return;
      }
      stats.record('request-read');
      if (outcome.kind === 'bad') {
        log.debug({ ip: socket.remoteAddress, reason: outcome.reason }, 'bad request');
        this.#reply(socket, errorReply(outcome.code));
        return;
      }
      const { head, raw } = outcome;
      const client = clientAddress(this.#ctx, socket, head) ?? '-';
      if (!counted && !this.#admitClient(socket, client)) return;
      this.#route(socket, head, raw);
    });
    socket.resume();
  }

  #route(socket: Socket, head: RequestHead, raw: Buffer): void {
    const { method, path } = head;
    try {
      if (method === 'SOURCE' || method === 'PUT') {
        serveSource(this.#ctx, socket, head);
      } else if (path.startsWith(HLS_PREFIX) && !this.#ctx.mounts.has(path)) {
        const ip = clientAddress(this.#ctx, socket, head);
        serveHls(this.#hls, this.#ctx.options.serverId, socket, head, ip, (next) =>
          this.#readRequest(next, true),
        );
      } else if (
        (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') &&
        (this.#ctx.mounts.has(path) ||
          !(path === '/admin' || path.startsWith('/admin/') || isPublicPage(path)))
      ) {
        serveListener(this.#ctx, socket, head);
      } else {
        socket.unshift(raw);
        this.#httpConnection.call(this.#http, socket);
        socket.resume();
      }
    } catch (error) {
      this.#ctx.log.error({ err: error, method, path }, 'request failed');
      this.#reply(socket, errorReply('STREAM_INTERNAL'));
    }
  }

  #reply(socket: Socket, reply: Reply, headOnly = false): void {
    sendReply(socket, this.#ctx.options.serverId, reply, headOnly);
  }

  /** Admin, status and health requests, parsed by node:http. */
  #onHttpRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const socket = req.socket;
    const since = Date.now();
    const started = process.hrtime.bigint();
    // Every answer is written to the socket in Icecast's form; node:http only parsed the request.
    res.on('error', ignoreError);
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    // The stream server speaks plain HTTP; a TLS proxy in front says so in X-Forwarded-Proto.
    const client = this.#ctx.proxies.forwarded(socket.remoteAddress, false, req.headers);
    const finish = (reply: Reply): void => {
      this.#reply(socket, reply, method === 'HEAD');
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.#metrics.observeRequest(method, routeLabel(target), reply.status, seconds);
      const length =
        typeof reply.body === 'string' ? Buffer.byteLength(reply.body) : (reply.body?.length ?? 0);
      this.#ctx.logs.access({
        ip: client.ip ?? '-',
        requestLine: `${method} ${target} HTTP/${req.httpVersion}`,
        status: reply.status,
        bytes: length,
        referer: req.headers.referer,
        userAgent: req.headers['user-agent'],
        seconds: (Date.now() - since) / 1000,
        quiet: target === '/health' || target === '/metrics',
      });
    };
    routeHttpRequest(req, client, this.#actions, this.#metrics)
      .then(finish)
      .catch((error: unknown) => {
        this.#ctx.log.error({ err: error, method, target }, 'request failed');
        finish(errorReply('STREAM_INTERNAL'));
      });
  }

  // ---- shutdown ------------------------------------------------------------------------------

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    // A close while `listen` is under way: let it finish, or the socket would open afterwards.
    if (this.#listening) await this.#listening.catch(ignoreError);
    this.#sweep.stop();
    this.#ctx.proxies.close();
    this.#network.close();
    this.#hls.close();
    this.#metrics.close();
    this.#publisher.close();
    const closed = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    this.#ctx.mounts.close();
    for (const socket of this.#sockets) socket.destroy();
    this.#http.closeAllConnections();
    await closed;
    // The listeners' 'close' events (their sessions) come in the ticks after their sockets go.
    await new Promise((resolve) => setImmediate(resolve));
    await this.#ctx.sessions.close();
    this.#ctx.logs.event('info', 'main', 'server stopped');
    this.#ctx.logs.close();
  }
}

/**
 * Builds a stream server without opening anything; `start` listens. Throws StreamConfigError
 * (`STREAM_INVALID_OPTIONS`) if the options are invalid.
 */
export function createStreamServer(
  options: StreamServerOptions,
  deps: StreamServerDeps,
): StreamServer {
  if (!deps?.logger) throw new TypeError('createStreamServer: deps.logger is required');
  return new StreamServerImpl(resolveOptions(options), deps);
}
