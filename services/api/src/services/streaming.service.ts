import { type Bus, type EventMessage, type Logger, STATION_MOUNTS } from '@radio/core';
import { Cached } from '../clients/cached.ts';
import { httpGet } from '../clients/http-get.ts';
import type { MountStatusDto, StreamingStatusDto } from '../dtos/status.dto.ts';
import { fallbackOnAir, readState } from './bus-state.ts';

/** The station's mounts as the API describes them. */
const MOUNTS = STATION_MOUNTS.map(({ path, codec, bitrate, quality }) => ({
  mount: path,
  format: codec,
  bitrate,
  quality,
}));

export interface StreamingOptions {
  streamUrl: string;
  /** What listeners are told; the stream URL when unset. */
  publicStreamUrl?: string | undefined;
  timeoutMs: number;
  cacheMs: number;
  logger: Logger;
}

interface IcecastMount {
  listeners: number | null;
  peak: number | null;
}

/** Icecast's status-json.xsl: `source` is an object for one mount and an array for several. */
function parseIcecastStatus(text: string): Map<string, IcecastMount> {
  const mounts = new Map<string, IcecastMount>();
  const parsed = JSON.parse(text) as { icestats?: { source?: unknown } };
  const source = parsed.icestats?.source;
  const list = Array.isArray(source) ? source : source ? [source] : [];
  for (const entry of list as Array<Record<string, unknown>>) {
    const url = typeof entry.listenurl === 'string' ? entry.listenurl : null;
    if (url === null) continue;
    let mount: string;
    try {
      mount = new URL(url).pathname;
    } catch {
      continue;
    }
    const number = (value: unknown) => (typeof value === 'number' ? value : null);
    mounts.set(mount, { listeners: number(entry.listeners), peak: number(entry.listener_peak) });
  }
  return mounts;
}

/**
 * GET /streaming-status. Listener counts come from the bus state (kept by the stream server,
 * the same in both modes); whether a source is connected comes from `stream.source` events
 * seen since start. What neither has answered yet is read from the stream server's
 * Icecast-style status-json.xsl, and left null when that cannot be reached either.
 */
export class StreamingService {
  readonly #bus: Bus;
  readonly #options: StreamingOptions;
  readonly #sources = new Map<string, boolean>();
  readonly #icecast: Cached<Map<string, IcecastMount> | null>;
  #unsubscribe: (() => void) | null = null;

  constructor(bus: Bus, options: StreamingOptions) {
    this.#bus = bus;
    this.#options = options;
    this.#icecast = new Cached(async () => {
      try {
        const url = new URL('/status-json.xsl', options.streamUrl).toString();
        const { status, body } = await httpGet(url, options.timeoutMs);
        return status === 200 ? parseIcecastStatus(body) : null;
      } catch (error) {
        options.logger.debug({ err: error }, 'stream server status unavailable');
        return null;
      }
    }, options.cacheMs);
  }

  start(): void {
    this.#unsubscribe = this.#bus.onEvent(
      (event: EventMessage<'stream.source'>) => {
        this.#sources.set(event.payload.mount, event.payload.connected);
      },
      ['stream.source'],
    );
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  async status(): Promise<StreamingStatusDto> {
    const { logger } = this.#options;
    const [listeners, nowPlaying, fallback] = await Promise.all([
      readState(this.#bus, 'listeners', logger),
      readState(this.#bus, 'now-playing', logger),
      fallbackOnAir(this.#bus, logger),
    ]);
    const needIcecast = listeners === null || MOUNTS.some((m) => !this.#sources.has(m.mount));
    const icecast = needIcecast ? await this.#icecast.get() : null;
    const base = (this.#options.publicStreamUrl ?? this.#options.streamUrl).replace(/\/+$/, '');

    const mounts: MountStatusDto[] = MOUNTS.map((m) => {
      const counted = listeners?.mounts.find((entry) => entry.mount === m.mount);
      const fromIcecast = icecast?.get(m.mount);
      let sourceConnected = this.#sources.get(m.mount) ?? null;
      if (sourceConnected === null && icecast) sourceConnected = icecast.has(m.mount);
      return {
        ...m,
        url: `${base}${m.mount}`,
        listeners: counted?.listeners ?? (listeners ? 0 : (fromIcecast?.listeners ?? null)),
        peak: counted?.peak ?? (listeners ? 0 : (fromIcecast?.peak ?? null)),
        sourceConnected,
      };
    });
    const known = mounts.every((m) => m.listeners !== null);
    const totalListeners = listeners
      ? listeners.total
      : known
        ? mounts.reduce((sum, m) => sum + (m.listeners ?? 0), 0)
        : null;
    return { mounts, hlsUrl: `${base}/hls/radio.m3u8`, totalListeners, nowPlaying, fallback };
  }
}
