import { type Bus, type EdgeListeners, edgeListenersSchema, type Logger } from '@radio/core';
import type { EdgeDirectory } from './edge-directory.ts';

export interface EdgeReporterInit {
  origin: URL;
  authorization: string;
  bus: Bus | null;
  directory: EdgeDirectory;
  intervalMs: number;
  log: Logger;
  /** The report as of now. */
  read(): EdgeListeners;
}

/**
 * Sends an edge's listener counts to the origin every `intervalMs`: as `edge.listeners` on the
 * bus when there is one (the origin and the other edges all hear it), else by POST to the
 * origin's `/admin/edge-listeners`, whose answer lists the other edges.
 */
export class EdgeReporter {
  readonly #init: EdgeReporterInit;
  #timer: NodeJS.Timeout | null = null;
  #failing = false;
  #closed = false;

  constructor(init: EdgeReporterInit) {
    this.#init = init;
  }

  start(): void {
    const tick = (): void => {
      void this.#report().finally(() => {
        if (this.#closed) return;
        this.#timer = setTimeout(tick, this.#init.intervalMs);
        this.#timer.unref();
      });
    };
    tick();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #report(): Promise<void> {
    const report = this.#init.read();
    try {
      if (this.#init.bus) await this.#init.bus.publish('edge.listeners', report);
      else await this.#post(report);
      if (this.#failing) this.#init.log.info('listener reports reach the origin again');
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) {
        this.#init.log.warn({ err: error }, 'cannot report listeners to the origin: retrying');
      }
      this.#failing = true;
    }
  }

  async #post(report: EdgeListeners): Promise<void> {
    const { origin, authorization, directory } = this.#init;
    const res = await fetch(new URL('/admin/edge-listeners', origin), {
      method: 'POST',
      headers: {
        authorization,
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'RadioEdge/1',
      },
      body: new URLSearchParams({ report: JSON.stringify(report) }).toString(),
      signal: AbortSignal.timeout(Math.max(1000, this.#init.intervalMs)),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`origin answered ${res.status}: ${text.slice(0, 200)}`);
    // The answer lists the edges the origin knows, so a full edge can send listeners on.
    const edges = (JSON.parse(text) as { edges?: unknown }).edges;
    if (!Array.isArray(edges)) throw new Error('origin answered the report with something else');
    for (const edge of edges) {
      const parsed = edgeListenersSchema.safeParse(edge);
      if (parsed.success) directory.update(parsed.data);
    }
  }
}
