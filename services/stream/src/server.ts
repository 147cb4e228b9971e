import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Bus, componentLogger, type ListenerCounts, type Logger, localUrl } from '@radio/core';
import type { AdminActions } from './admin/routes.ts';
import { ERRORS, StreamError, type StreamErrorCode } from './errors.ts';
import { readHead } from './head-reader.ts';
import { closeAfterReply, errorReply, type Reply, responseHead, sendReply } from './http-reply.ts';
import { routeHttpRequest } from './http-routes.ts';
import { Listener } from './listener.ts';
import { ServerLogs } from './logs.ts';
import { Mount, type MountHooks } from './mount.ts';
import {
  type MountConfig,
  type ResolvedOptions,
  resolveOptions,
  type StreamServerOptions,
} from './options.ts';
import { isPublicPage, type PublicContext } from './public-routes.ts';
import type { RequestHead } from './request-head.ts';
import { admitSource, runSource, type Source, type SourceContext } from './source.ts';
import {
  ListenerCountPublisher,
  type ListenerSnapshot,
  type MountSnapshot,
  ServerCounters,
  type ServerSnapshot,
} from './stats.ts';
import { ListenerSweep } from './sweep.ts';

export interface StreamServerDeps {
  logger: Logger;
  /** Listener counts and source events go here; the server runs without one. */
  bus?: Bus | undefined;
}

export interface StreamServer {
  /** The port actually listened on (useful with port 0). */
  readonly port: number;
  /** `http://host:port` to reach the server (the public URL when one is configured). */
  readonly url: string;
  /** The current stats, as stats.xml shows them (`includeIdle` adds mounts without a source). */
  snapshot(includeIdle?: boolean): ServerSnapshot;
  /** Sets a mount's title as `/admin/metadata?mode=updinfo` does; false if it has no source. */
  setMetadata(mount: string, title: string): boolean;
  /** Disconnects everyone and stops listening. Idempotent; later calls return the same promise. */
  close(): Promise<void>;
}

/**
 * Not sent by Icecast; lets browser code (fetch with `Icy-MetaData: 1`) read the ICY headers.
 * Clients that do not know it ignore it.
 */
const EXPOSE_ICY_HEADERS =
  'Access-Control-Expose-Headers: icy-br, icy-description, icy-genre, icy-metaint, icy-name, icy-pub, icy-url, ice-audio-info';

/** A request head may be this big (what Node's HTTP parser allows too). */
const MAX_HEAD_BYTES = 16 * 1024;

function ignoreError(): void {}

/**
 * The stream server: one listening socket for everything. Each new connection's request head
 * is read here first: SOURCE/PUT go to a source, GET/HEAD/OPTIONS on a mount to a listener
 * (both served from the raw socket), and the rest (/admin/, status documents, health) is
 * handed to node:http with the bytes put back.
 */
class StreamServerImpl
  implements StreamServer, SourceContext, AdminActions, PublicContext, MountHooks
{
  readonly options: ResolvedOptions;
  readonly log: Logger;
  readonly rootLog: Logger;
  readonly logs: ServerLogs;
  readonly #bus: Bus | null;
  readonly #http: http.Server;
  readonly #httpConnection: (socket: Socket) => void;
  readonly #mounts = new Map<string, Mount>();
  readonly #sockets = new Set<Socket>();
  readonly #counters = new ServerCounters();
  readonly #publisher: ListenerCountPublisher;
  readonly #startedAt = Date.now();
  #sourceCount = 0;
  #listenerCount = 0;
  #nextId = 1;
  readonly #sweep: ListenerSweep;
  #closing: Promise<void> | null = null;
  #port = 0;
  #publicBase = '';

  constructor(options: ResolvedOptions, deps: StreamServerDeps) {
    this.options = options;
    this.rootLog = deps.logger;
    this.log = componentLogger(deps.logger, 'server');
    this.#bus = deps.bus ?? null;
    this.logs = new ServerLogs(options.dataDir, deps.logger);
    this.#publisher = new ListenerCountPublisher(this.#bus, this.log, () => this.listenerCounts());
    this.#sweep = new ListenerSweep(options, this.log, () => this.#mounts.values());
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

  async start(): Promise<void> {
    const { host, port, listenBacklog } = this.options;
    await new Promise<void>((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen({ host, port, backlog: listenBacklog }, () => {
        this.#http.removeListener('error', reject);
        resolve();
      });
    });
    this.#http.on('error', (error) => this.log.error({ err: error }, 'server socket error'));
    this.#port = (this.#http.address() as AddressInfo).port;
    const { publicUrl, hostname } = this.options;
    this.#publicBase =
      publicUrl ?? (hostname ? `http://${hostname}:${this.#port}` : localUrl(this.#http.address()));
    for (const config of this.options.mounts) this.#mounts.set(config.path, this.#newMount(config));
    this.#sweep.start();
    this.#publisher.publishNow();
    this.logs.event('info', 'main', `server started on ${this.#publicBase}`);
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return this.#publicBase;
  }

  // ---- connections ---------------------------------------------------------------------------

  #onConnection(socket: Socket): void {
    if (this.#closing) {
      socket.destroy();
      return;
    }
    this.#counters.connections += 1;
    this.#counters.clients += 1;
    this.#sockets.add(socket);
    socket.on('error', ignoreError);
    socket.once('close', () => {
      this.#counters.clients -= 1;
      this.#sockets.delete(socket);
    });
    readHead(socket, MAX_HEAD_BYTES, this.options.headerTimeoutMs, (outcome) => {
      if (outcome.kind === 'gone') return;
      this.#counters.clientConnections += 1;
      if (outcome.kind === 'bad') {
        this.log.debug({ ip: socket.remoteAddress, reason: outcome.reason }, 'bad request');
        this.#reply(socket, errorReply(outcome.code));
        return;
      }
      this.#route(socket, outcome.head, outcome.raw);
    });
  }

  #route(socket: Socket, head: RequestHead, raw: Buffer): void {
    const { method, path } = head;
    try {
      if (method === 'SOURCE' || method === 'PUT') {
        this.#serveSource(socket, head);
      } else if (
        (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') &&
        (this.#mounts.has(path) ||
          !(path === '/admin' || path.startsWith('/admin/') || isPublicPage(path)))
      ) {
        this.#serveMount(socket, head);
      } else {
        socket.unshift(raw);
        this.#httpConnection.call(this.#http, socket);
        socket.resume();
      }
    } catch (error) {
      this.log.error({ err: error, method, path }, 'request failed');
      this.#reply(socket, errorReply('STREAM_INTERNAL'));
    }
  }

  #reply(socket: Socket, reply: Reply, headOnly = false): void {
    sendReply(socket, this.options.serverId, reply, headOnly);
  }

  #accessLog(
    socket: Socket,
    head: RequestHead,
    status: number,
    bytes: number,
    since: number,
  ): void {
    this.logs.access({
      ip: socket.remoteAddress ?? '-',
      requestLine: `${head.method} ${head.target} ${head.version}`,
      status,
      bytes,
      referer: head.headers.get('referer'),
      userAgent: head.headers.get('user-agent'),
      seconds: (Date.now() - since) / 1000,
    });
  }

  #refuse(socket: Socket, head: RequestHead, code: StreamErrorCode): void {
    const reply = errorReply(code);
    this.#reply(socket, reply, head.method === 'HEAD');
    this.#accessLog(socket, head, ERRORS[code].status, 0, Date.now());
  }

  // ---- sources -------------------------------------------------------------------------------

  #serveSource(socket: Socket, head: RequestHead): void {
    let source: Source;
    try {
      source = admitSource(this, socket, head);
    } catch (error) {
      if (!(error instanceof StreamError)) throw error;
      const code = error.code as StreamErrorCode;
      this.logs.event('warn', 'source', `source refused on ${head.path}: ${error.message}`, {
        ip: socket.remoteAddress,
      });
      this.#refuse(socket, head, code);
      return;
    }
    this.#sourceCount += 1;
    this.#counters.sourceClientConnections += 1;
    runSource(this, source, head);
  }

  nextId(): number {
    return this.#nextId++;
  }

  sourceCount(): number {
    return this.#sourceCount;
  }

  mountForSource(path: string, contentType: string): Mount | null {
    const existing = this.#mounts.get(path);
    if (existing) return existing;
    if (this.#closing) return null;
    const config: MountConfig = {
      path,
      contentType,
      bitrate: null,
      quality: null,
      name: null,
      description: null,
      genre: null,
      url: null,
      public: null,
      maxListeners: null,
      fallbackMount: null,
      fallbackOverride: true,
      configured: false,
    };
    const mount = this.#newMount(config);
    this.#mounts.set(path, mount);
    return mount;
  }

  sourceClosed(source: Source, mount: Mount): void {
    this.#sourceCount -= 1;
    this.logs.access({
      ip: source.ip,
      user: 'source',
      requestLine: source.requestLine,
      status: 200,
      bytes: 0,
      userAgent: source.userAgent,
      seconds: (Date.now() - source.connectedAt) / 1000,
    });
    this.logs.event('info', 'source', `source left ${mount.path}`, { bytesRead: source.bytesRead });
  }

  #newMount(config: MountConfig): Mount {
    return new Mount(config, {
      burstSize: this.options.burstSize,
      queueLimit: this.options.queueLimit,
      sourceGraceMs: this.options.sourceGraceMs,
      chunkMs: this.options.chunkMs,
      publicBase: this.#publicBase,
      log: this.log,
      hooks: this,
    });
  }

  // ---- mount hooks ---------------------------------------------------------------------------

  listenersChanged(): void {
    this.#publisher.changed();
  }

  sourceChanged(mount: Mount, source: Source, connected: boolean): void {
    if (connected) {
      this.logs.event('info', 'source', `source connected to ${mount.path}`, {
        ip: source.ip,
        userAgent: source.userAgent,
        contentType: source.contentType,
      });
      this.#bringBackListeners(mount);
    } else {
      this.#moveToFallback(mount, false);
    }
    if (this.#bus) {
      const bitrate = mount.snapshot().bitrate;
      this.#bus
        .publish('stream.source', {
          mount: mount.path,
          connected,
          contentType: source.contentType,
          ...(bitrate ? { bitrate } : {}),
        })
        .catch((error: unknown) => this.log.warn({ err: error }, 'cannot publish source event'));
    }
  }

  graceEnded(mount: Mount): void {
    this.#moveToFallback(mount, true);
    for (const listener of [...mount.listeners]) listener.drop('source-gone');
    if (mount.listenerCount > 0) {
      this.logs.event('info', 'source', `no source came back to ${mount.path}: listeners dropped`, {
        listeners: mount.listenerCount,
      });
    }
    if (!mount.config.configured) this.#mounts.delete(mount.path);
  }

  listenerDropped(mount: Mount, listener: Listener, reason: string): void {
    this.#counters.slowListeners += 1;
    this.logs.event(
      'warn',
      'listener',
      `listener ${listener.id} on ${mount.path} dropped: ${reason}`,
      {
        ip: listener.ip,
        bytesSent: listener.bytesSent,
      },
    );
  }

  /** Icecast's fallback-mount: listeners go to the fallback when it has a source. */
  #moveToFallback(mount: Mount, graceOver: boolean): void {
    const fallbackPath = mount.config.fallbackMount;
    const fallback = fallbackPath ? this.#mounts.get(fallbackPath) : undefined;
    if (fallback?.state !== 'live' || mount.listenerCount === 0) return;
    if (fallback.format.kind !== mount.format.kind) return;
    const moved = this.#moveAll(mount, fallback, false);
    this.logs.event(
      'info',
      'source',
      `${moved} listeners of ${mount.path} moved to fallback ${fallback.path}`,
      {
        graceOver,
      },
    );
  }

  /** Icecast's fallback-override: listeners of a mount come back when its source does. */
  #bringBackListeners(mount: Mount): void {
    if (!mount.config.fallbackOverride) return;
    for (const other of this.#mounts.values()) {
      if (other === mount) continue;
      for (const listener of [...other.listeners]) {
        if (listener.home === mount.path && listener.dropReason === null) {
          other.removeListener(listener, false);
          mount.adoptListener(listener);
        }
      }
    }
  }

  #moveAll(from: Mount, to: Mount, rehome: boolean): number {
    const listeners = from.listeners.filter((listener) => listener.dropReason === null);
    for (const listener of listeners) {
      from.removeListener(listener, false);
      to.adoptListener(listener);
      if (rehome) listener.home = to.path;
    }
    return listeners.length;
  }

  // ---- listeners -----------------------------------------------------------------------------

  #serveMount(socket: Socket, head: RequestHead): void {
    const since = Date.now();
    if (head.method === 'OPTIONS') {
      this.#reply(socket, {
        status: 204,
        late: [
          'Access-Control-Allow-Methods: GET, HEAD, OPTIONS',
          'Access-Control-Allow-Headers: Icy-MetaData, Range, Content-Type',
          EXPOSE_ICY_HEADERS,
          'Access-Control-Max-Age: 86400',
        ],
      });
      this.#accessLog(socket, head, 204, 0, since);
      return;
    }
    const requested = this.#mounts.get(head.path);
    let mount = requested?.active ? requested : undefined;
    if (mount === undefined && requested?.config.fallbackMount) {
      const fallback = this.#mounts.get(requested.config.fallbackMount);
      if (fallback?.active) mount = fallback;
    }
    if (mount === undefined) {
      this.#refuse(socket, head, 'STREAM_NOT_FOUND');
      return;
    }
    const icy = head.headers.get('icy-metadata')?.trim() === '1';
    const headText = responseHead(200, {
      serverId: this.options.serverId,
      contentType: mount.contentType,
      late: [EXPOSE_ICY_HEADERS, ...mount.listenerHeaders(icy)],
    });
    if (head.method === 'HEAD') {
      // Icecast answers HEAD with 400; players probing a stream expect the GET headers.
      socket.end(headText, 'latin1');
      closeAfterReply(socket);
      this.#accessLog(socket, head, 200, 0, since);
      return;
    }
    const perMount = mount.config.maxListeners ?? this.options.maxListenersPerMount;
    if (this.options.maxListeners !== null && this.#listenerCount >= this.options.maxListeners) {
      this.#refuse(socket, head, 'STREAM_SERVER_FULL');
      return;
    }
    if (perMount !== null && mount.listenerCount >= perMount) {
      this.#refuse(socket, head, 'STREAM_MAX_LISTENERS');
      return;
    }
    const listener = new Listener({
      id: this.nextId(),
      socket,
      ip: socket.remoteAddress ?? '-',
      userAgent: head.headers.get('user-agent') ?? '',
      referer: head.headers.get('referer') ?? '',
      requestLine: `${head.method} ${head.target} ${head.version}`,
      icy: icy && mount.format.icy,
      home: head.path,
    });
    this.#listenerCount += 1;
    this.#counters.listenerConnections += 1;
    socket.setNoDelay(true);
    socket.once('close', () => this.#listenerClosed(listener, since));
    mount.addListener(listener, Buffer.from(headText, 'latin1'));
    // Flowing with no 'data' listener: whatever the client sends (a body on GET) is dropped,
    // and a reset is noticed.
    socket.resume();
  }

  #listenerClosed(listener: Listener, since: number): void {
    this.#listenerCount -= 1;
    listener.mount?.removeListener(listener, true);
    listener.socket.removeAllListeners('drain');
    this.logs.access({
      ip: listener.ip,
      requestLine: listener.requestLine,
      status: 200,
      bytes: listener.bytesSent,
      referer: listener.referer,
      userAgent: listener.userAgent,
      seconds: (Date.now() - since) / 1000,
    });
  }

  // ---- node:http requests (admin, status, health) ----------------------------------------------

  #onHttpRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const socket = req.socket;
    const since = Date.now();
    // Every answer is written to the socket in Icecast's form; node:http only parsed the request.
    res.on('error', ignoreError);
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const finish = (reply: Reply): void => {
      this.#reply(socket, reply, method === 'HEAD');
      const length =
        typeof reply.body === 'string' ? Buffer.byteLength(reply.body) : (reply.body?.length ?? 0);
      this.logs.access({
        ip: socket.remoteAddress ?? '-',
        requestLine: `${method} ${target} HTTP/${req.httpVersion}`,
        status: reply.status,
        bytes: length,
        referer: req.headers.referer,
        userAgent: req.headers['user-agent'],
        seconds: (Date.now() - since) / 1000,
        quiet: target === '/health',
      });
    };
    routeHttpRequest(req, this)
      .then(finish)
      .catch((error: unknown) => {
        this.log.error({ err: error, method, target }, 'request failed');
        finish(errorReply('STREAM_INTERNAL'));
      });
  }

  // ---- admin actions -------------------------------------------------------------------------

  snapshot(includeIdle = false): ServerSnapshot {
    const mounts: MountSnapshot[] = [];
    for (const mount of this.#mounts.values()) {
      if (includeIdle || mount.active) mounts.push(mount.snapshot());
    }
    return {
      serverId: this.options.serverId,
      admin: this.options.adminEmail,
      host: this.options.hostname ?? new URL(this.#publicBase || 'http://localhost').hostname,
      location: this.options.location,
      serverStart: this.#startedAt,
      counters: this.#counters,
      listeners: this.#listenerCount,
      sources: this.#sourceCount,
      mounts,
    };
  }

  activeMount(path: string): MountSnapshot | null {
    const mount = this.#mounts.get(path);
    return mount?.active ? mount.snapshot() : null;
  }

  findMount(path: string): MountSnapshot | null {
    return this.#mounts.get(path)?.snapshot() ?? null;
  }

  baseUrl(host: string | undefined): string {
    if (this.options.publicUrl) return this.options.publicUrl;
    return host && /^[\w.:[\]-]+$/.test(host) ? `http://${host}` : this.#publicBase;
  }

  listeners(path: string): ListenerSnapshot[] {
    return this.#mounts.get(path)?.listenerSnapshots() ?? [];
  }

  killClient(path: string, id: number): boolean {
    const listener = this.#mounts.get(path)?.findListener(id);
    if (!listener || listener.dropReason !== null) return false;
    listener.drop('kicked');
    this.logs.event('info', 'admin', `listener ${id} on ${path} kicked`, { ip: listener.ip });
    return true;
  }

  moveClients(from: string, to: string): number {
    const source = this.#mounts.get(from);
    const destination = this.#mounts.get(to);
    if (!source?.active) throw new StreamError('ADMIN_NO_SUCH_SOURCE');
    if (!destination?.active) throw new StreamError('ADMIN_NO_SUCH_DESTINATION');
    if (source === destination) throw new StreamError('ADMIN_SAME_MOUNT');
    if (source.format.kind !== destination.format.kind)
      throw new StreamError('ADMIN_FORMAT_MISMATCH');
    const moved = this.#moveAll(source, destination, true);
    this.logs.event('info', 'admin', `${moved} listeners moved from ${from} to ${to}`);
    return moved;
  }

  killSource(path: string): boolean {
    const source = this.#mounts.get(path)?.source;
    if (!source) return false;
    this.logs.event('info', 'admin', `source on ${path} kicked`, { ip: source.ip });
    source.kill();
    return true;
  }

  setMetadata(path: string, title: string, url = ''): boolean {
    const mount = this.#mounts.get(path);
    if (!mount?.active) return false;
    mount.setMetadata(title, url);
    this.logs.event('info', 'admin', `metadata on ${path} updated`, { title });
    return true;
  }

  configuration(): [string, string][] {
    const o = this.options;
    const rows: [string, string][] = [];
    for (const [key, value] of Object.entries(o.runningConfig ?? {}))
      rows.push([key, String(value)]);
    rows.push(
      ['listen', `${o.host}:${this.#port}`],
      ['public URL', this.#publicBase],
      ['burst size', `${o.burstSize} bytes`],
      ['queue limit', `${o.queueLimit} bytes`],
      ['source grace', `${o.sourceGraceMs} ms`],
      ['source timeout', `${o.sourceTimeoutMs} ms`],
      ['stall timeout', `${o.stallTimeoutMs} ms`],
      ['max listeners', o.maxListeners === null ? 'unlimited' : String(o.maxListeners)],
      [
        'max listeners per mount',
        o.maxListenersPerMount === null ? 'unlimited' : String(o.maxListenersPerMount),
      ],
      ['admin user', o.adminUser],
      ['admin password', '********'],
      ['source password', '********'],
      ['log directory', o.dataDir === null ? '(memory only)' : `${o.dataDir}/logs`],
    );
    for (const mount of o.mounts) {
      const parts = [
        mount.contentType,
        mount.bitrate === null ? null : `${mount.bitrate} kbit/s`,
        mount.quality,
      ];
      if (mount.fallbackMount) parts.push(`fallback ${mount.fallbackMount}`);
      if (mount.maxListeners !== null) parts.push(`max ${mount.maxListeners} listeners`);
      rows.push([`mount ${mount.path}`, parts.filter(Boolean).join(', ')]);
    }
    return rows;
  }

  listenerCounts(): ListenerCounts {
    const mounts = [...this.#mounts.values()]
      .filter((mount) => mount.config.configured || mount.active)
      .map((mount) => ({ mount: mount.path, listeners: mount.listenerCount, peak: mount.peak }));
    return { mounts, total: this.#listenerCount };
  }

  // ---- shutdown ------------------------------------------------------------------------------

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#sweep.stop();
    this.#publisher.close();
    const closed = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    for (const mount of this.#mounts.values()) {
      mount.close();
      for (const listener of [...mount.listeners]) listener.drop('shutdown');
      mount.source?.kill();
    }
    for (const socket of this.#sockets) socket.destroy();
    this.#http.closeAllConnections();
    await closed;
    this.logs.event('info', 'main', 'server stopped');
    await this.logs.close();
  }
}

/**
 * Starts a stream server. Resolves once it listens; rejects if the options are invalid
 * (StreamConfigError, `STREAM_INVALID_OPTIONS`) or the port cannot be bound.
 */
export async function createStreamServer(
  options: StreamServerOptions,
  deps: StreamServerDeps,
): Promise<StreamServer> {
  if (!deps?.logger) throw new TypeError('createStreamServer: deps.logger is required');
  const server = new StreamServerImpl(resolveOptions(options), deps);
  try {
    await server.start();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}
