import type { FrameHeader, Logger } from '@radio/core';
import { ChunkChain } from './chunk-chain.ts';
import { type AudioFormat, formatOf, type SilenceFrames } from './formats/index.ts';
import type { IceHeaders } from './ice-headers.ts';
import { ICY_METAINT, type IcyMeta, icyMeta, NO_META } from './icy.ts';
import type { DropReason, Listener } from './listener.ts';
import type { MountConfig } from './options.ts';
import { SilencePacer } from './silence.ts';
import type { ListenerSnapshot, MountSnapshot, MountState } from './stats.ts';
import { cleanText } from './title-text.ts';

/** What a mount reads of the source feeding it (source.ts implements it). */
export interface MountSource {
  readonly ip: string;
  readonly userAgent: string;
  readonly contentType: string;
  readonly ice: IceHeaders;
  /** The bitrate the source announced (`ice-bitrate`, `ice-audio-info`), if any. */
  readonly announcedBitrate: number | null;
  readonly connectedAt: number;
  readonly bytesRead: number;
  /** Disconnects it (admin kill, shutdown); its socket's 'close' detaches it. */
  kill(): void;
}

export interface MountHooks {
  /** The listener count of a mount changed. */
  listenersChanged(mount: Mount): void;
  /** A source connected to or left the mount. */
  sourceChanged(mount: Mount, source: MountSource, connected: boolean): void;
  /** The grace period ended without a source: the server moves or drops the listeners. */
  graceEnded(mount: Mount): void;
  /** A listener was dropped by the mount (slow). */
  listenerDropped(mount: Mount, listener: Listener, reason: DropReason): void;
  /** A chunk of whole frames was appended (HLS cuts its segments from them). */
  audioAppended?(mount: Mount, chunk: Buffer): void;
}

export interface MountEnvironment {
  burstSize: number;
  queueLimit: number;
  sourceGraceMs: number;
  chunkMs: number;
  /** `http://host:port` of `listenurl`. */
  publicBase: string;
  log: Logger;
  hooks: MountHooks;
}

/**
 * One mount point: its chunk chain, its source, its listeners and its counters. It outlives
 * its sources: when a source leaves, the mount keeps its listeners for the grace period and
 * feeds them silence in the stream's own format; a source that comes back continues the same
 * chain, so the listeners never notice more than the silence.
 */
export class Mount {
  readonly path: string;
  config: MountConfig;
  format: AudioFormat;
  #env: MountEnvironment;
  #chain: ChunkChain;
  #listeners: Listener[] = [];
  #source: MountSource | null = null;
  #state: MountState = 'idle';
  #meta: IcyMeta = NO_META;
  #silence: SilenceFrames | null = null;
  #silenceKey = '';
  #pacer: SilencePacer | null = null;
  #graceTimer: NodeJS.Timeout | null = null;
  #graceEndsAt: number | null = null;
  #closed = false;
  #peak = 0;
  #hlsListeners = 0;
  #slow = 0;
  #bytesRead = 0;
  #bytesSentClosed = 0;
  #streamStart: number | null = null;
  /** What the last source parsed from its frames (kept through grace for the stats). */
  #header: FrameHeader | null = null;
  /** Listener response headers without and with `icy-metaint`; reset when the source changes. */
  #headerCache: [readonly string[] | null, readonly string[] | null] = [null, null];

  constructor(config: MountConfig, env: MountEnvironment) {
    this.path = config.path;
    this.config = config;
    this.format = formatOf(config.contentType);
    this.#env = env;
    this.#chain = new ChunkChain(env.burstSize, this.#meta);
    this.#useSilenceFrom(this.format.defaultTemplate(config.bitrate ?? 128), config.bitrate ?? 128);
  }

  get state(): MountState {
    return this.#state;
  }

  /** Listeners can be served: a source is live or the grace period is running. */
  get active(): boolean {
    return this.#state !== 'idle';
  }

  get source(): MountSource | null {
    return this.#source;
  }

  get listenerCount(): number {
    return this.#listeners.length;
  }

  get peak(): number {
    return this.#peak;
  }

  /** HLS sessions on this mount's variant (counted by the HLS service, not connections). */
  get hlsListeners(): number {
    return this.#hlsListeners;
  }

  setHlsListeners(count: number): void {
    this.#hlsListeners = count;
    const total = this.#listeners.length + count;
    if (total > this.#peak) this.#peak = total;
    this.#env.hooks.listenersChanged(this);
  }

  get listeners(): readonly Listener[] {
    return this.#listeners;
  }

  get title(): string {
    return this.#meta.title;
  }

  get contentType(): string {
    return this.#source?.contentType ?? this.config.contentType;
  }

  /** Bytes a new listener gets at once. */
  get burstBytes(): number {
    return this.#env.burstSize === 0 ? 0 : this.#chain.burstBytes;
  }

  // ---- sources -------------------------------------------------------------------------------

  attachSource(source: MountSource): void {
    if (this.#state === 'idle') {
      // A new stream: nothing of the last one is sent to new listeners.
      this.#chain = new ChunkChain(this.#env.burstSize, this.#meta);
      this.#streamStart = Date.now();
    }
    this.#stopGrace();
    this.#source = source;
    this.#state = 'live';
    this.#headerCache = [null, null];
    const contentType = source.contentType;
    if (formatOf(contentType).kind !== this.format.kind) this.format = formatOf(contentType);
    this.#env.hooks.sourceChanged(this, source, true);
  }

  /** The source's stream parameters, from its first frame (or a change of them). */
  sourceFormat(header: FrameHeader, template: Buffer): void {
    this.#header = header;
    this.#headerCache = [null, null];
    const bitrate = this.#source?.announcedBitrate ?? this.config.bitrate ?? header.bitrate;
    this.#useSilenceFrom(template, bitrate);
  }

  detachSource(source: MountSource): void {
    if (this.#source !== source) return;
    this.#bytesRead += source.bytesRead;
    this.#source = null;
    this.#headerCache = [null, null];
    this.#env.hooks.sourceChanged(this, source, false);
    if (!this.#closed) this.#startGrace();
  }

  // ---- audio ---------------------------------------------------------------------------------

  /**
   * Appends a chunk and hands it to every listener that is caught up: one shared Buffer, one
   * write each. Blocked listeners catch up on 'drain'; those too far behind are dropped.
   */
  appendAudio(buf: Buffer): void {
    const node = this.#chain.append(buf, this.#meta);
    const end = node.end;
    const limit = this.#env.queueLimit;
    const list = this.#listeners;
    let slow: Listener[] | null = null;
    for (let i = 0; i < list.length; i++) {
      const listener = list[i] as Listener;
      if (!listener.blocked) {
        listener.send(node);
      } else if (
        listener.dropReason === null &&
        end - listener.last.end + listener.socket.writableLength > limit
      ) {
        slow ??= [];
        slow.push(listener);
      }
    }
    if (slow !== null) for (const listener of slow) this.dropSlow(listener, 'slow');
    this.#env.hooks.audioAppended?.(this, buf);
  }

  /** The title (cleaned, see cleanText) for ICY blocks and stats, from the next audio on. */
  setMetadata(rawTitle: string, rawUrl = ''): void {
    const title = cleanText(rawTitle);
    const url = cleanText(rawUrl);
    // Encoders repeat the title (Liquidsoap at every track start): the same text is the same
    // block, so listeners are not sent it again.
    if (this.#meta !== NO_META && this.#meta.title === title && this.#meta.url === url) return;
    this.#meta = icyMeta(title, url);
  }

  // ---- listeners -----------------------------------------------------------------------------

  /** Adds a new listener: writes `head` and the burst, then follows the chain. */
  addListener(listener: Listener, head: Buffer): void {
    this.#push(listener);
    const burst = this.#env.burstSize > 0 ? this.#chain.burstPoint : null;
    listener.start(head, burst, this.#chain.tail);
  }

  /** Takes over a listener from another mount; it continues at this mount's newest chunk. */
  adoptListener(listener: Listener): void {
    this.#push(listener);
    listener.moveTo(this.#chain.tail);
  }

  /** Removes a listener that closed (or moves away); returns false if it was not here. */
  removeListener(listener: Listener, closed: boolean): boolean {
    const list = this.#listeners;
    const index = listener.index;
    if (index < 0 || list[index] !== listener) return false;
    const last = list.pop() as Listener;
    if (last !== listener) {
      list[index] = last;
      last.index = index;
    }
    listener.index = -1;
    if (closed) this.#bytesSentClosed += listener.bytesSent;
    this.#env.hooks.listenersChanged(this);
    return true;
  }

  findListener(id: number): Listener | undefined {
    return this.#listeners.find((listener) => listener.id === id);
  }

  /** Drops a listener for falling behind or not reading, and counts it as slow. */
  dropSlow(listener: Listener, reason: DropReason): void {
    if (listener.dropReason !== null) return;
    this.#slow += 1;
    listener.drop(reason);
    this.#env.hooks.listenerDropped(this, listener, reason);
  }

  /** Stream bytes not yet handed to this listener's socket. */
  lagOf(listener: Listener): number {
    return listener.lag(this.#chain.end);
  }

  #push(listener: Listener): void {
    listener.index = this.#listeners.length;
    listener.mount = this;
    this.#listeners.push(listener);
    const total = this.#listeners.length + this.#hlsListeners;
    if (total > this.#peak) this.#peak = total;
    this.#env.hooks.listenersChanged(this);
  }

  // ---- source loss ---------------------------------------------------------------------------

  #useSilenceFrom(template: Buffer | null, bitrate: number): void {
    if (template === null) return;
    const key = `${template.toString('hex')}/${bitrate}`;
    if (key === this.#silenceKey) return;
    const silence = this.format.silence(template, bitrate);
    if (silence) {
      this.#silence = silence;
      this.#silenceKey = key;
    }
  }

  #startGrace(): void {
    this.#stopGrace();
    this.#state = 'grace';
    const graceMs = this.#env.sourceGraceMs;
    this.#graceEndsAt = Date.now() + graceMs;
    this.#pacer = this.#silence ? new SilencePacer(this.#silence) : null;
    const startedAt = performance.now();
    const tick = (): void => {
      const now = performance.now();
      const chunk = this.#pacer?.take(now);
      if (chunk) this.appendAudio(chunk);
      if (now - startedAt >= graceMs) this.#endGrace();
    };
    this.#graceTimer = setInterval(tick, Math.min(this.#env.chunkMs, Math.max(graceMs, 1)));
    this.#graceTimer.unref();
    if (!this.#pacer) {
      this.#env.log.warn(
        { mount: this.path },
        'no silence frames for this format: listeners wait without audio',
      );
    }
  }

  #stopGrace(): void {
    if (this.#graceTimer) clearInterval(this.#graceTimer);
    this.#graceTimer = null;
    this.#graceEndsAt = null;
    this.#pacer = null;
  }

  #endGrace(): void {
    this.#stopGrace();
    this.#state = 'idle';
    this.#meta = NO_META;
    this.#streamStart = null;
    this.#env.hooks.graceEnded(this);
  }

  /** Stops timers for good; listeners and the source are closed by the server. */
  close(): void {
    this.#closed = true;
    this.#stopGrace();
    this.#state = 'idle';
  }

  // ---- stats ---------------------------------------------------------------------------------

  /** The stream's description: the mount's configuration first, then what the source said. */
  #describe(): {
    name: string | null;
    description: string | null;
    genre: string | null;
    url: string | null;
    public: boolean | null;
    bitrate: number | null;
  } {
    const ice = this.#source?.ice;
    const config = this.config;
    const header = this.#header;
    return {
      name: config.name ?? ice?.name ?? null,
      description: config.description ?? ice?.description ?? null,
      genre: config.genre ?? ice?.genre ?? null,
      url: config.url ?? ice?.url ?? null,
      public: config.public ?? ice?.public ?? null,
      bitrate:
        this.#source?.announcedBitrate ??
        config.bitrate ??
        (header && header.bitrate > 0 ? header.bitrate : null),
    };
  }

  snapshot(): MountSnapshot {
    const source = this.#source;
    const config = this.config;
    let sent = this.#bytesSentClosed;
    for (const listener of this.#listeners) sent += listener.bytesSent;
    const header = this.#header;
    const described = this.#describe();
    return {
      path: this.path,
      state: this.#state,
      configured: config.configured,
      contentType: this.contentType,
      listeners: this.#listeners.length + this.#hlsListeners,
      // Only mounts served as HLS (AAC) have the field, so the others stay as Icecast has them.
      ...(this.format.kind === 'aac' ? { hlsListeners: this.#hlsListeners } : {}),
      peak: this.#peak,
      slowListeners: this.#slow,
      maxListeners: config.maxListeners,
      ...described,
      quality: config.quality,
      audioInfo: this.audioInfo(),
      channels: header?.channels ?? null,
      sampleRate: header?.sampleRate ?? null,
      title: this.#meta === NO_META ? null : this.#meta.title,
      sourceIp: source?.ip ?? null,
      userAgent: source?.userAgent ?? null,
      streamStart: this.#streamStart,
      sourceConnectedAt: source?.connectedAt ?? null,
      graceEndsAt: this.#graceEndsAt,
      totalBytesRead: this.#bytesRead + (source?.bytesRead ?? 0),
      totalBytesSent: sent,
      fallback: config.fallbackMount,
      listenUrl: `${this.#env.publicBase}${this.path}`,
    };
  }

  listenerSnapshots(): ListenerSnapshot[] {
    return this.#listeners.map((listener) => ({
      id: listener.id,
      mount: this.path,
      ip: listener.ip,
      userAgent: listener.userAgent,
      connectedAt: listener.connectedAt,
      bytesSent: listener.bytesSent,
      icy: listener.icy,
    }));
  }

  /** `ice-audio-info`: the source's own, else what its frames say, else the configuration. */
  audioInfo(): string | null {
    const announced = this.#source?.ice.audioInfo;
    if (announced) return announced;
    const header = this.#header;
    const bitrate = this.#source?.announcedBitrate ?? this.config.bitrate;
    if (header) {
      const rate = header.codec === 'mp3' ? (bitrate ?? header.bitrate) : null;
      return `channels=${header.channels};samplerate=${header.sampleRate}${rate ? `;bitrate=${rate}` : ''}`;
    }
    if (this.format.kind === 'mp3' || this.format.kind === 'aac') {
      const rate = this.format.kind === 'mp3' ? bitrate : null;
      return `channels=2;samplerate=44100${rate ? `;bitrate=${rate}` : ''}`;
    }
    return null;
  }

  /**
   * The headers of a listener response after the common ones, in Icecast's order: `icy-br`,
   * `ice-audio-info`, then the stream's description fields, then `icy-metaint`.
   */
  listenerHeaders(icy: boolean): readonly string[] {
    const withIcy = icy && this.format.icy;
    const cached = this.#headerCache[withIcy ? 1 : 0];
    if (cached) return cached;
    const s = this.#describe();
    const lines: string[] = [];
    if (s.bitrate !== null) lines.push(`icy-br:${s.bitrate}`);
    const audioInfo = this.audioInfo();
    if (audioInfo) lines.push(`ice-audio-info: ${audioInfo}`);
    if (s.description !== null) lines.push(`icy-description:${headerText(s.description)}`);
    if (s.genre !== null) lines.push(`icy-genre:${headerText(s.genre)}`);
    if (s.name !== null) lines.push(`icy-name:${headerText(s.name)}`);
    if (s.public !== null) lines.push(`icy-pub:${s.public ? 1 : 0}`);
    if (s.url !== null) lines.push(`icy-url:${headerText(s.url)}`);
    if (withIcy) lines.push(`icy-metaint:${ICY_METAINT}`);
    this.#headerCache[withIcy ? 1 : 0] = lines;
    return lines;
  }
}

/** Header values go out as UTF-8 bytes (written as latin1 strings) without line breaks. */
function headerText(value: string): string {
  return Buffer.from(value.replace(/[\r\n]+/g, ' '), 'utf8').toString('latin1');
}

export type { DropReason };
