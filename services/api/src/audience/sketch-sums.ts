import type { ListenerSketchesTable, ListenerSketchSpan } from '@radio/db';
import type { SessionSlice } from './audience.repository.ts';
import { HyperLogLog, type ValueHash } from './hyperloglog.ts';

/** The value a session is counted by: its listener, or the session itself when none is kept. */
export function listenerValue(session: { id: number; listener: string | null }): string {
  // The same stand-in as the reports' coalesce(listener, '#' || id).
  return session.listener ?? `#${session.id}`;
}

interface Entry {
  row: Omit<ListenerSketchesTable, 'sketch'>;
  sketch: HyperLogLog;
}

/**
 * The listeners of hours and days as HyperLogLog sketches per mount, country ('' unknown) and
 * client family: a session is added to the sketch of every hour (and day) it overlaps.
 */
export class SketchSums {
  readonly #entries = new Map<string, Entry>();

  add(span: ListenerSketchSpan, start: number, session: SessionSlice, hash: ValueHash): void {
    const country = session.country ?? '';
    const id = `${span}\n${start}\n${session.mount}\n${country}\n${session.client}`;
    let entry = this.#entries.get(id);
    if (entry === undefined) {
      const row = { span, start_ms: start, mount: session.mount, country, client: session.client };
      entry = { row, sketch: new HyperLogLog() };
      this.#entries.set(id, entry);
    }
    entry.sketch.addHash(hash);
  }

  rows(span: ListenerSketchSpan): ListenerSketchesTable[] {
    const rows: ListenerSketchesTable[] = [];
    for (const { row, sketch } of this.#entries.values()) {
      if (row.span !== span) continue;
      const bytes = sketch.toBytes();
      rows.push({ ...row, sketch: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    }
    return rows;
  }
}
