import type { Socket } from 'node:net';
import { ChunkedDecoder, componentLogger, FrameSplitter } from '@radio/core';
import { checkSourceAuth } from './auth.ts';
import type { ServerContext } from './context.ts';
import { StreamError, type StreamErrorCode } from './errors.ts';
import { ChunkAssembler } from './formats/chunk-assembler.ts';
import { formatOf } from './formats/index.ts';
import { loginLimitedReply, sendReply } from './http-reply.ts';
import { type IceHeaders, readIceHeaders } from './ice-headers.ts';
import type { Mount, MountSource } from './mount.ts';
import { isValidMountPath } from './options.ts';
import { logRawRequest, refuse } from './raw-reply.ts';
import type { RequestHead } from './request-head.ts';
import { clientAddress } from './sessions/listener-sessions.ts';

/**
 * One source connection: ffmpeg, Liquidsoap, butt ... pushing to a mount with PUT or SOURCE.
 * Its body is cut into whole frames and gathered into chunks for the mount. A source that
 * sends nothing for `sourceTimeoutMs` is disconnected (Icecast's source-timeout).
 */
export class Source implements MountSource {
  readonly id: number;
  readonly socket: Socket;
  readonly mount: Mount;
  readonly ip: string;
  readonly userAgent: string;
  readonly contentType: string;
  readonly ice: IceHeaders;
  readonly connectedAt = Date.now();
  readonly requestLine: string;
  bytesRead = 0;
  #splitter: FrameSplitter;
  #assembler: ChunkAssembler;
  #template: Buffer | null = null;
  #closed = false;

  constructor(init: {
    id: number;
    socket: Socket;
    mount: Mount;
    contentType: string;
    head: RequestHead;
    chunkMs: number;
  }) {
    this.id = init.id;
    this.socket = init.socket;
    this.mount = init.mount;
    this.ip = init.socket.remoteAddress ?? '-';
    this.userAgent = init.head.headers.get('user-agent') ?? '';
    this.contentType = init.contentType;
    this.ice = readIceHeaders(init.head.headers);
    this.requestLine = `${init.head.method} ${init.head.target} ${init.head.version}`;
    this.#splitter = new FrameSplitter(formatOf(init.contentType).frameFormat);
    this.#assembler = new ChunkAssembler(init.chunkMs, 4096);
  }

  /** The bitrate the source announced (`ice-bitrate`, `ice-audio-info`), if any. */
  get announcedBitrate(): number | null {
    return this.ice.bitrate;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Feeds bytes of the body (the first ones came with the head). */
  ingest(data: Buffer): void {
    this.bytesRead += data.length;
    this.#splitter.push(data, this.#onFrames);
  }

  /** Ends the stream: what is gathered goes out, then the mount starts its grace period. */
  finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    const rest = this.#assembler.flush();
    if (rest) this.mount.appendAudio(rest);
    this.mount.detachSource(this);
  }

  kill(): void {
    this.socket.destroy();
  }

  readonly #onFrames = (frames: Buffer, samples: number): void => {
    const header = this.#splitter.header;
    const template = this.#splitter.template;
    if (header && template && template !== this.#template) {
      this.#template = template;
      this.mount.sourceFormat(header, template);
    }
    const chunk = this.#assembler.add(frames, samples, header?.sampleRate ?? 0);
    if (chunk) this.mount.appendAudio(chunk);
  };
}

/**
 * Serves a SOURCE or PUT request: admits the source and streams its body into its mount, or
 * answers with the refusal (logged once per client, reason and minute).
 */
export function serveSource(ctx: ServerContext, socket: Socket, head: RequestHead): void {
  const client = clientAddress(ctx, socket, head) ?? '-';
  const wait = ctx.logins.blockedFor(client);
  if (wait > 0) {
    ctx.logs.refusal('source', 'too many failed logins: refused', client);
    sendReply(socket, ctx.options.serverId, loginLimitedReply(wait), head.method === 'HEAD');
    logRawRequest(ctx, socket, head, 429, 0, Date.now());
    return;
  }
  let source: Source;
  try {
    source = admitSource(ctx, socket, head, client);
  } catch (error) {
    if (!(error instanceof StreamError)) throw error;
    ctx.logs.refusal('source', `source refused: ${error.message}`, client, { mount: head.path });
    refuse(ctx, socket, head, error.code as StreamErrorCode);
    return;
  }
  ctx.stats.record('source-connected');
  runSource(ctx, source, head);
}

/**
 * Checks a source request as Icecast does, in its order: credentials (401, a failed login of
 * `client`), the mount (403 "Mountpoint in use" when another source has it), the content
 * type. Throws StreamError with the refusal.
 */
function admitSource(
  ctx: ServerContext,
  socket: Socket,
  head: RequestHead,
  client: string,
): Source {
  const options = ctx.options;
  const authorization = head.headers.get('authorization');
  if (!checkSourceAuth(authorization, options.sourcePassword)) {
    if (authorization !== undefined) ctx.logins.fail(client);
    throw new StreamError('STREAM_AUTH_REQUIRED');
  }
  ctx.logins.succeed(client);
  if (!isValidMountPath(head.path)) throw new StreamError('STREAM_BAD_MOUNT');
  if (ctx.stats.sources >= options.maxSources) throw new StreamError('STREAM_SOURCE_LIMIT');
  const configured = options.mounts.find((mount) => mount.path === head.path);
  const contentType = head.headers.get('content-type') ?? configured?.contentType;
  if (!contentType) throw new StreamError('STREAM_NO_CONTENT_TYPE');
  const mount = ctx.mounts.forSource(head.path, contentType);
  if (mount === null) throw new StreamError('STREAM_BAD_MOUNT');
  if (mount.source !== null) throw new StreamError('STREAM_MOUNT_IN_USE');
  return new Source({
    id: ctx.nextId(),
    socket,
    mount,
    contentType,
    head,
    chunkMs: options.chunkMs,
  });
}

/**
 * Answers an admitted source and streams its body into the mount. PUT with `Expect:
 * 100-continue` (ffmpeg) gets the interim response first, as Icecast sends it.
 */
function runSource(ctx: ServerContext, source: Source, head: RequestHead): void {
  const socket = source.socket;
  const expect = head.headers.get('expect')?.toLowerCase().includes('100-continue') === true;
  socket.write(
    expect
      ? 'HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\nHTTP/1.0 200 OK\r\n\r\n'
      : 'HTTP/1.0 200 OK\r\n\r\n',
  );
  source.mount.attachSource(source);
  const log = componentLogger(ctx.rootLog, 'source', {
    mount: source.mount.path,
    sourceId: source.id,
  });
  socket.setNoDelay(true);
  socket.setTimeout(ctx.options.sourceTimeoutMs);
  socket.on('timeout', () => {
    log.warn({ timeoutMs: ctx.options.sourceTimeoutMs }, 'source sent no data: disconnecting');
    socket.destroy();
  });
  const chunked = head.headers.get('transfer-encoding')?.toLowerCase().includes('chunked') === true;
  const decoder = chunked ? new ChunkedDecoder() : null;
  const ingest = (data: Buffer): void => {
    if (decoder === null) {
      source.ingest(data);
    } else if (!decoder.push(data, (payload) => source.ingest(payload)) || decoder.done) {
      if (!decoder.done) log.warn('malformed chunked body: disconnecting the source');
      socket.destroy();
    }
  };
  socket.on('data', ingest);
  // The server allows half-open sockets (for node:http); a source that ends its stream is done.
  socket.on('end', () => socket.destroy());
  socket.on('error', (error) => log.debug({ err: error }, 'source socket error'));
  socket.once('close', () => {
    source.finish();
    sourceClosed(ctx, source);
  });
  if (head.rest.length > 0) ingest(head.rest);
  socket.resume();
}

function sourceClosed(ctx: ServerContext, source: Source): void {
  ctx.stats.record('source-left');
  ctx.logs.access({
    ip: source.ip,
    user: 'source',
    requestLine: source.requestLine,
    status: 200,
    bytes: 0,
    userAgent: source.userAgent,
    seconds: (Date.now() - source.connectedAt) / 1000,
  });
  ctx.logs.event('info', 'source', `source left ${source.mount.path}`, {
    bytesRead: source.bytesRead,
  });
}
