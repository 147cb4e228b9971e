import { type ClientRequest, request } from 'node:http';

export interface SseEvent {
  event: string;
  data: unknown;
  id?: string;
}

export interface SseClient {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly events: SseEvent[];
  /** Resolves with the first event (from the start of the stream) that matches and was not taken yet. */
  next(event: string, matches?: (data: never) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

/** A minimal EventSource: reads `event:`/`data:`/`id:` blocks from a real HTTP response. */
export function openEvents(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const taken = new Set<SseEvent>();
    const waiters = new Set<() => void>();
    let req: ClientRequest | null = null;
    let buffer = '';
    req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            if (colon < 0) continue;
            fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
          }
          if (fields.event === undefined || fields.data === undefined) continue;
          events.push({
            event: fields.event,
            data: JSON.parse(fields.data),
            ...(fields.id && { id: fields.id }),
          });
          for (const wake of [...waiters]) wake();
        }
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        next(event, matches = () => true, timeoutMs = 10_000) {
          return new Promise((found, fail) => {
            const look = () => {
              const hit = events.find(
                (e) => !taken.has(e) && e.event === event && matches(e.data as never),
              );
              if (!hit) return false;
              taken.add(hit);
              waiters.delete(wake);
              clearTimeout(timer);
              found(hit);
              return true;
            };
            const wake = () => {
              look();
            };
            const timer = setTimeout(() => {
              waiters.delete(wake);
              fail(
                new Error(
                  `no "${event}" event within ${timeoutMs} ms; got ${events.map((e) => e.event).join(', ')}`,
                ),
              );
            }, timeoutMs);
            if (!look()) waiters.add(wake);
          });
        },
        close() {
          req?.destroy();
        },
      });
    });
    req.on('error', reject);
    req.end();
  });
}
