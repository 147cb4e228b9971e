import http from 'node:http';
import { FrameSplitter } from '@radio/core';
import { ChunkAssembler } from '../formats/chunk-assembler.ts';
import { formatOf } from '../formats/index.ts';
import { type IceHeaders, readIceHeaders } from '../ice-headers.ts';
import { IcyDemuxer } from '../icy.ts';
import type { Mount, MountSource } from '../mount.ts';

/** What a pull needs to know: where, as whom, and how long the origin may stay silent. */
export interface PullRequest {
  url: URL;
  authorization: string;
  userAgent: string;
  timeoutMs: number;
}

/** The origin's answer to a pull: its stream, or why there is none. */
export type PullResult =
  | { ok: true; response: http.IncomingMessage }
  | { ok: false; why: string; refused: boolean };

/**
 * Connects to a mount on the origin as a listener with `Icy-MetaData: 1` (so titles come
 * in-band, in step with the audio). The admin credentials go along: our origin lets its edges
 * past MAX_LISTENERS and does not count them as audience.
 */
export function pull(request: PullRequest): Promise<PullResult> {
  return new Promise((resolve) => {
    const req = http.get(request.url, {
      agent: false,
      headers: {
        'icy-metadata': '1',
        authorization: request.authorization,
        'user-agent': request.userAgent,
      },
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer in ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    req.once('close', () => clearTimeout(timer));
    req.once('response', (response) => {
      clearTimeout(timer);
      const status = response.statusCode ?? 0;
      if (status === 200) {
        resolve({ ok: true, response });
        return;
      }
      response.destroy();
      resolve({ ok: false, why: `origin answered ${status}`, refused: status === 401 });
    });
    req.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ ok: false, why: error.code ?? error.message, refused: false }),
    );
  });
}

/**
 * A relayed stream feeding the edge's mount as a pushed source would: its body is cut into
 * whole frames and gathered into chunks, and each in-band title is set on the mount between
 * the audio before it and the audio after it, so edge listeners get it at the same point.
 */
export class RelaySource implements MountSource {
  readonly ip: string;
  readonly userAgent = 'relay';
  readonly contentType: string;
  readonly ice: IceHeaders;
  readonly connectedAt = Date.now();
  bytesRead = 0;
  readonly #response: http.IncomingMessage;
  readonly #mount: Mount;
  readonly #splitter: FrameSplitter;
  readonly #assembler: ChunkAssembler;
  #template: Buffer | null = null;
  #finished = false;

  constructor(mount: Mount, response: http.IncomingMessage, origin: URL, chunkMs: number) {
    this.#mount = mount;
    this.#response = response;
    this.ip = origin.host;
    this.contentType = response.headers['content-type'] ?? mount.config.contentType;
    const headers = new Map<string, string>();
    for (const [name, value] of Object.entries(response.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    this.ice = readIceHeaders(headers);
    this.#splitter = new FrameSplitter(formatOf(this.contentType).frameFormat);
    this.#assembler = new ChunkAssembler(chunkMs, 4096);
  }

  get announcedBitrate(): number | null {
    return this.ice.bitrate;
  }

  /**
   * Streams the origin's body into the mount until it ends or stays silent for `timeoutMs`;
   * `onEnd` runs once, after the mount has let the source go (and started its grace).
   */
  run(timeoutMs: number, onEnd: (why: string) => void): void {
    const response = this.#response;
    const metaint = Number(response.headers['icy-metaint']);
    const audio = (data: Buffer): void => this.#splitter.push(data, this.#onFrames);
    const demuxer =
      metaint > 0 ? new IcyDemuxer(metaint, audio, (title, url) => this.#title(title, url)) : null;
    response.on('data', (data: Buffer) => {
      this.bytesRead += data.length;
      if (demuxer) demuxer.push(data);
      else audio(data);
    });
    let why = 'origin closed the stream';
    response.once('error', (error: NodeJS.ErrnoException) => {
      why = error.code ?? error.message;
    });
    response.socket.setTimeout(timeoutMs, () => {
      why = `origin sent nothing for ${timeoutMs} ms`;
      response.destroy();
    });
    response.once('close', () => {
      this.#finish();
      onEnd(why);
    });
  }

  kill(): void {
    this.#response.destroy();
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    const rest = this.#assembler.flush();
    if (rest) this.#mount.appendAudio(rest);
    this.#mount.detachSource(this);
  }

  #title(title: string, url: string): void {
    const before = this.#assembler.flush();
    if (before) this.#mount.appendAudio(before);
    this.#mount.setMetadata(title, url);
  }

  readonly #onFrames = (frames: Buffer, samples: number): void => {
    const header = this.#splitter.header;
    const template = this.#splitter.template;
    if (header && template && template !== this.#template) {
      this.#template = template;
      this.#mount.sourceFormat(header, template);
    }
    const chunk = this.#assembler.add(frames, samples, header?.sampleRate ?? 0);
    if (chunk) this.#mount.appendAudio(chunk);
  };
}
