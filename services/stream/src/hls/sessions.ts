import { randomBytes } from 'node:crypto';

/** What a token looks like: anything else is ignored as if there were none. */
const TOKEN = /^[A-Za-z0-9_-]{8,32}$/;

/** Who a session is, for its record when it ends. */
export interface HlsVisitor {
  /** The listener's address (see TrustedProxies). */
  ip: string | null;
  userAgent: string;
}

/** A fetch that is part of a session: who made it, of which mount, and the bytes it got. */
export interface HlsVisit {
  visitor: HlsVisitor;
  mount: string;
  bytes: number;
}

/** What is known of a session when it ends. */
export interface EndedHlsSession {
  startedAt: number;
  lastSeen: number;
  bytes: number;
  /** The mount of the variant it last fetched; null if no fetch said (sessions of tests). */
  mount: string | null;
  visitor: HlsVisitor | null;
}

interface Session {
  variant: string;
  lastSeen: number;
  startedAt: number;
  bytes: number;
  mount: string | null;
  visitor: HlsVisitor | null;
}

export interface SessionOptions {
  /** A session ends this long after its last fetch (two segment durations). */
  idleMs: number;
  /** Sessions kept at most; beyond, the one idle longest is ended (bounded memory). */
  maxSessions: number;
  /** Called when the counts of some variants changed. */
  changed(): void;
  /** Called for each session that ends (idle, evicted, its variant gone, or all at close). */
  ended?(session: EndedHlsSession): void;
}

/**
 * HLS listeners: a player fetches a playlist and then a segment every segment duration, each a
 * separate request. The token in the URLs the media playlist hands out joins them into one
 * session per player. Any well-formed token is a session key, so a forged or expired one just
 * starts a new session and a player never sees an error for it.
 */
export class HlsSessions {
  readonly #options: SessionOptions;
  /** In order of last fetch (a fetch moves its session to the end), so expiry reads the front. */
  readonly #sessions = new Map<string, Session>();
  readonly #counts = new Map<string, number>();

  constructor(options: SessionOptions) {
    this.#options = options;
  }

  /** A token for a player that came without one (or with a malformed one). */
  static newToken(): string {
    return randomBytes(12).toString('base64url');
  }

  static isToken(value: string | null): value is string {
    return value !== null && TOKEN.test(value);
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Whether `token` names a live session (one not yet idle for `idleMs`, swept or not). */
  has(token: string, now = Date.now()): boolean {
    const session = this.#sessions.get(token);
    return session !== undefined && now - session.lastSeen < this.#options.idleMs;
  }

  /** Listeners of a variant (by name). */
  count(variant: string): number {
    return this.#counts.get(variant) ?? 0;
  }

  /** Records a fetch of `variant` by the session `token`, starting the session if new. */
  touch(token: string, variant: string, now = Date.now(), visit?: HlsVisit): void {
    const session = this.#sessions.get(token);
    if (session !== undefined) {
      this.#sessions.delete(token);
      this.#sessions.set(token, session);
      session.lastSeen = now;
      if (visit) {
        session.bytes += visit.bytes;
        session.mount = visit.mount;
        session.visitor ??= visit.visitor;
      }
      if (session.variant === variant) return;
      this.#add(session.variant, -1);
      session.variant = variant;
      this.#add(variant, 1);
      this.#options.changed();
      return;
    }
    if (this.#sessions.size >= this.#options.maxSessions) this.#end(this.#oldest());
    this.#sessions.set(token, {
      variant,
      lastSeen: now,
      startedAt: now,
      bytes: visit?.bytes ?? 0,
      mount: visit?.mount ?? null,
      visitor: visit?.visitor ?? null,
    });
    this.#add(variant, 1);
    this.#options.changed();
  }

  /** Ends the sessions idle for longer than `idleMs`. */
  expire(now = Date.now()): void {
    const limit = now - this.#options.idleMs;
    let ended = false;
    for (const [token, session] of this.#sessions) {
      if (session.lastSeen > limit) break;
      this.#end(token);
      ended = true;
    }
    if (ended) this.#options.changed();
  }

  /** Ends every session of a variant (its stream ended). */
  endVariant(variant: string): void {
    if (this.count(variant) === 0) return;
    for (const [token, session] of this.#sessions) {
      if (session.variant === variant) this.#end(token);
    }
    this.#options.changed();
  }

  /** Ends every session (the server is closing). */
  endAll(): void {
    if (this.#sessions.size === 0) return;
    for (const token of [...this.#sessions.keys()]) this.#end(token);
    this.#options.changed();
  }

  #oldest(): string | undefined {
    for (const token of this.#sessions.keys()) return token;
    return undefined;
  }

  #end(token: string | undefined): void {
    if (token === undefined) return;
    const session = this.#sessions.get(token);
    if (session === undefined) return;
    this.#sessions.delete(token);
    this.#add(session.variant, -1);
    this.#options.ended?.(session);
  }

  #add(variant: string, delta: number): void {
    const count = (this.#counts.get(variant) ?? 0) + delta;
    if (count === 0) this.#counts.delete(variant);
    else this.#counts.set(variant, count);
  }
}
