/**
 * The api's first-admin setup, as its log tells it: at each start while no admin exists it
 * logs WAITING_FOR_ADMIN with the one-time `setupCode`, and FIRST_ADMIN_CREATED once the code
 * has been used. The latest of the two says whether setup is pending, and with which code.
 */
import { StringDecoder } from 'node:string_decoder';
import type { ChunkSink } from './docker/index.ts';

export const WAITING_FOR_ADMIN =
  'waiting for the first admin: open the web app and enter the setup code';
export const FIRST_ADMIN_CREATED = 'first admin created';

/** What one log line says about setup: the code it waits with, done, or nothing. */
export type SetupEvent = { pending: true; code: string } | { pending: false } | null;

/** Reads one line of the api's JSON log; anything that is not one of the two lines is null. */
export function setupEvent(line: string): SetupEvent {
  // Most lines are requests and such: skip them before parsing.
  if (!line.includes(WAITING_FOR_ADMIN) && !line.includes(FIRST_ADMIN_CREATED)) return null;
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return null;
  }
  if (record === null || typeof record !== 'object') return null;
  const { msg, setupCode } = record as { msg?: unknown; setupCode?: unknown };
  if (msg === FIRST_ADMIN_CREATED) return { pending: false };
  if (msg === WAITING_FOR_ADMIN && typeof setupCode === 'string' && setupCode !== '') {
    return { pending: true, code: setupCode };
  }
  return null;
}

/**
 * A sink for the api container's log stream (both streams): keeps only the latest setup event,
 * so a long log costs no memory. `code()` is the pending setup code, or null.
 */
export class SetupLog implements ChunkSink {
  readonly #decoder = new StringDecoder('utf8');
  #pending = '';
  #latest: SetupEvent = null;

  write(chunk: Buffer): boolean {
    this.#pending += this.#decoder.write(chunk);
    const lines = this.#pending.split('\n');
    this.#pending = lines.pop() ?? '';
    for (const line of lines) this.#take(line);
    return true;
  }

  /** Takes a last line that had no newline; call once the stream has ended. */
  end(): void {
    this.#pending += this.#decoder.end();
    if (this.#pending !== '') this.#take(this.#pending);
    this.#pending = '';
  }

  code(): string | null {
    return this.#latest?.pending ? this.#latest.code : null;
  }

  #take(line: string): void {
    const event = setupEvent(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (event !== null) this.#latest = event;
  }
}
