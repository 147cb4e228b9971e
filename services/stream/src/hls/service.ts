import { createHmac, randomBytes } from 'node:crypto';
import type { Logger } from '@radio/core';
import type { Mount } from '../mount.ts';
import { masterPlaylist, mediaPlaylist } from './playlist.ts';
import { type EndedHlsSession, HlsSessions, type HlsVisitor } from './sessions.ts';
import { HlsVariant } from './variant.ts';

export interface HlsOptions {
  segmentSeconds: number;
  windowSize: number;
  maxSessions: number;
}

/** What the HLS routes answer; serve.ts writes it. */
export interface HlsReply {
  status: 200 | 204 | 302 | 403 | 404 | 405;
  contentType?: string;
  /** `Location` value (a 302). */
  location?: string;
  /** `Cache-Control` value. */
  cache?: string;
  body?: string | Buffer;
}

/**
 * Asked before a new player gets a playlist (the master, or a media playlist outside any live
 * session), with the request target: null admits it; a reply (a 302 to a node with room, or a
 * refusal) is sent instead. A live session's fetches are never asked about.
 */
export type HlsAdmission = (path: string, target: string) => HlsReply | null;

/**
 * A session that ended, with its end: the last fetch plus one segment's duration (the player
 * played the segment it fetched last), never later than now.
 */
export type HlsSessionEnd = (session: EndedHlsSession, endedAt: number) => void;

/** The master playlist's fixed path. */
export const MASTER_PATH = '/hls/radio.m3u8';
const MEDIA = /^\/hls\/(.+)\/live\.m3u8$/;
const SEGMENT = /^\/hls\/(.+)\/([0-9a-z]+)-(\d{1,12})\.aac$/;

const NOT_FOUND: HlsReply = {
  status: 404,
  contentType: 'text/plain; charset=utf-8',
  body: 'Not found\n',
};

interface Entry {
  mount: Mount;
  variant: HlsVariant;
}

/**
 * HLS for every AAC mount: a variant per mount fed with the mount's own chunks, the playlists
 * and segments, and the session count of each variant, added to its mount's listeners.
 *
 * Names: a mount's variant is `/hls/<name>/live.m3u8`, `<name>` its path without the leading
 * slash and the extension (`/radio.aac` → `radio`). If another AAC mount holds that name, it is
 * the path without the leading slash, extension kept (`/radio` and `/radio.aac` → `radio`,
 * `radio.aac`); if that too is held, the mount has no HLS (a warning says so). So two live
 * mounts never share a name.
 */
export class HlsService {
  readonly #options: HlsOptions;
  readonly #log: Logger;
  readonly #byMount = new Map<string, Entry>();
  readonly #byName = new Map<string, Entry>();
  readonly #refused = new Set<string>();
  readonly #sessions: HlsSessions;
  readonly #secret = randomBytes(16);
  readonly #admit: HlsAdmission;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    options: HlsOptions,
    log: Logger,
    admit: HlsAdmission = () => null,
    sessionEnded?: HlsSessionEnd,
  ) {
    this.#options = options;
    this.#log = log;
    this.#admit = admit;
    const segmentMs = options.segmentSeconds * 1000;
    this.#sessions = new HlsSessions({
      idleMs: 2 * segmentMs,
      maxSessions: options.maxSessions,
      changed: () => this.#publishCounts(),
      ...(sessionEnded
        ? {
            ended: (session: EndedHlsSession) =>
              sessionEnded(session, Math.min(Date.now(), session.lastSeen + segmentMs)),
          }
        : {}),
    });
  }

  start(): void {
    this.#timer = setInterval(() => this.#sessions.expire(), 500);
    this.#timer.unref();
  }

  /** Stops the expiry; the sessions still open end now. */
  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#sessions.endAll();
  }

  /** Sessions open now, all variants. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** A chunk (whole frames) was appended to a mount. */
  audio(mount: Mount, chunk: Buffer): void {
    if (mount.format.kind !== 'aac') return;
    const entry = this.#byMount.get(mount.path) ?? this.#create(mount);
    entry?.variant.append(chunk, mount.title === '' ? null : mount.title);
  }

  /** The mount's stream ended (no source came back within the grace): its variant goes. */
  streamEnded(mount: Mount): void {
    this.#refused.delete(mount.path);
    const entry = this.#byMount.get(mount.path);
    if (entry === undefined) return;
    this.#byMount.delete(mount.path);
    this.#byName.delete(entry.variant.name);
    this.#sessions.endVariant(entry.variant.name);
    mount.setHlsListeners(0);
  }

  /**
   * The answer to a GET of `path` (under /hls/). `token` is the `s` parameter; a missing or
   * malformed one is replaced by one derived from the client's address and user agent, so a
   * player reloading a token-less playlist URL stays one session. `target` is the request
   * target (path and query), for a player sent elsewhere.
   */
  handle(path: string, token: string | null, client: HlsVisitor, target = path): HlsReply {
    if (path === MASTER_PATH) return this.#master(path, target);
    const media = MEDIA.exec(path);
    if (media) {
      const session = this.#tokenFor(token, client);
      if (!this.#sessions.has(session)) {
        const turnedAway = this.#playable(media[1] as string) && this.#admit(path, target);
        if (turnedAway) return turnedAway;
      }
      return this.#media(media[1] as string, session, client);
    }
    const segment = SEGMENT.exec(path);
    if (segment) {
      const [, name, streamId, sequence] = segment as unknown as [string, string, string, string];
      const session = this.#tokenFor(token, client);
      return this.#segment(name, streamId, Number(sequence), session, client);
    }
    return NOT_FOUND;
  }

  #master(path: string, target: string): HlsReply {
    const variants = [...this.#byName.values()]
      .map((entry) => entry.variant)
      .filter((variant) => variant.segments.length > 0)
      .sort((a, b) => b.bitsPerSecond - a.bitsPerSecond);
    if (variants.length === 0) return NOT_FOUND;
    // The master is a new player's first fetch: a full node sends it on from here.
    const turnedAway = this.#admit(path, target);
    if (turnedAway) return turnedAway;
    return {
      status: 200,
      contentType: 'application/vnd.apple.mpegurl',
      cache: 'max-age=1',
      body: masterPlaylist(variants, HlsSessions.newToken()),
    };
  }

  /** Whether a variant has a playlist to give (else its playlist is a 404, full or not). */
  #playable(name: string): boolean {
    return (this.#byName.get(name)?.variant.segments.length ?? 0) > 0;
  }

  #media(name: string, token: string, visitor: HlsVisitor): HlsReply {
    const entry = this.#byName.get(name);
    if (entry === undefined || entry.variant.segments.length === 0) return NOT_FOUND;
    const body = mediaPlaylist(entry.variant, token);
    this.#sessions.touch(token, name, Date.now(), {
      visitor,
      mount: entry.mount.path,
      bytes: Buffer.byteLength(body),
    });
    return {
      status: 200,
      contentType: 'application/vnd.apple.mpegurl',
      // Private: the body names this listener's session.
      cache: 'private, max-age=1',
      body,
    };
  }

  #segment(
    name: string,
    streamId: string,
    sequence: number,
    token: string,
    visitor: HlsVisitor,
  ): HlsReply {
    const entry = this.#byName.get(name);
    if (entry === undefined || entry.variant.streamId !== streamId) return NOT_FOUND;
    const segment = entry.variant.segment(sequence);
    if (segment === undefined) return NOT_FOUND;
    this.#sessions.touch(token, name, Date.now(), {
      visitor,
      mount: entry.mount.path,
      bytes: segment.data.length,
    });
    return {
      status: 200,
      contentType: 'audio/aac',
      cache: 'public, max-age=86400, immutable',
      body: segment.data,
    };
  }

  #tokenFor(token: string | null, client: HlsVisitor): string {
    if (HlsSessions.isToken(token)) return token;
    return createHmac('sha256', this.#secret)
      .update(`${client.ip ?? '-'} ${client.userAgent}`)
      .digest('base64url')
      .slice(0, 16);
  }

  #create(mount: Mount): Entry | undefined {
    if (this.#refused.has(mount.path)) return undefined;
    const full = mount.path.slice(1);
    const short = full.replace(/\.[^./]*$/, '');
    const name = [short, full].find((candidate) => !this.#byName.has(candidate));
    if (name === undefined) {
      this.#refused.add(mount.path);
      this.#log.warn({ mount: mount.path }, 'no HLS for this mount: its HLS names are taken');
      return undefined;
    }
    const variant = new HlsVariant(mount.path, name, {
      segmentSeconds: this.#options.segmentSeconds,
      windowSize: this.#options.windowSize,
    });
    const entry = { mount, variant };
    this.#byMount.set(mount.path, entry);
    this.#byName.set(name, entry);
    return entry;
  }

  #publishCounts(): void {
    for (const { mount, variant } of this.#byMount.values()) {
      const count = this.#sessions.count(variant.name);
      if (mount.hlsListeners !== count) mount.setHlsListeners(count);
    }
  }
}
