import { isIP } from 'node:net';

/**
 * `https://Radio.Example:443/` as the origin `https://radio.example`; null for anything that
 * is not an http(s) origin (a path, a query, a user name, the `null` of a sandboxed page).
 */
export function originOf(text: string): string | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null;
  return url.origin;
}

/** The name in a Host header (`Radio.Example:8080` → `radio.example`, `[::1]:80` → `::1`). */
function hostNameOf(host: string): string | null {
  if (/[/?#@\s\\]/.test(host) || !URL.canParse(`http://${host}`)) return null;
  const name = new URL(`http://${host}`).hostname.replace(/\.$/, '');
  return name.startsWith('[') ? name.slice(1, -1) : name;
}

/** Origins as `originOf` gives them (the api's options are resolved so). */
export interface StationOriginsOptions {
  /** PUBLIC_URL's origin: where browsers reach the station. */
  publicUrl: string | undefined;
  /** ALLOWED_ORIGINS: other pages that may change things here. */
  allowedOrigins: readonly string[];
  /** This machine's host name (`os.hostname()`). */
  machineName: string;
}

/**
 * The addresses the station answers to: which pages may send it changes (against CSRF) and
 * which host names strangers may reach it under (against DNS rebinding, where a page of
 * `evil.example` has its name point at the station to talk to it as its own origin).
 */
export class StationOrigins {
  readonly #public: string | null;
  readonly #allowed: ReadonlySet<string>;
  readonly #names: ReadonlySet<string>;

  constructor(options: StationOriginsOptions) {
    this.#public = options.publicUrl ?? null;
    this.#allowed = new Set(options.allowedOrigins);
    const origins = [...(this.#public === null ? [] : [this.#public]), ...this.#allowed];
    this.#names = new Set([
      ...origins.map((origin) => new URL(origin).hostname),
      options.machineName.toLowerCase(),
    ]);
  }

  /**
   * Whether a page at `origin` may change things here: PUBLIC_URL's origin, one of
   * ALLOWED_ORIGINS, or the request's `own` origin as the trusted proxies give it (a LAN user
   * at http://192.0.2.5:8080 beside the public name). The own origin is safe to accept: a
   * rebinding page shares it, but without a session it meets the known-host check, and the
   * session cookie is never sent to its name.
   */
  allowsOrigin(origin: string, own: string | null): boolean {
    const theirs = originOf(origin);
    if (theirs === null) return false;
    if (theirs === this.#public || this.#allowed.has(theirs)) return true;
    return own !== null && theirs === originOf(own);
  }

  /**
   * Whether a Host header names the station: PUBLIC_URL's or an allowed origin's host name,
   * `localhost` and `*.localhost`, an IP address, or this machine's name. A rebinding page
   * cannot send any of these (an IP is no name to rebind; `localhost` never leaves the machine).
   */
  answersTo(host: string | undefined): boolean {
    const name = host === undefined ? null : hostNameOf(host);
    if (name === null || name === '') return false;
    if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) return true;
    return this.#names.has(name);
  }
}
