// Loaded into each service by `bench:soak --diagnostics DIR` (node --import --expose-gc): every
// SOAK_PROBE_MS it collects garbage, then appends the process's memory and its live handles by
// type to DIR/<service>-<pid>.jsonl. The live heap after a full collection grows only with
// what is kept; RSS also moves with the allocator and V8's heap sizing.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.SOAK_PROBE_DIR;
const service = process.env.SOAK_PROBE_NAME ?? 'node';
if (dir) {
  const file = join(dir, `${service}-${process.pid}.jsonl`);
  const gc = (globalThis as { gc?: () => void }).gc;
  const timer = setInterval(
    () => {
      gc?.();
      const handles: Record<string, number> = {};
      for (const type of process.getActiveResourcesInfo()) handles[type] = (handles[type] ?? 0) + 1;
      const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
      const kb = (bytes: number) => Math.round(bytes / 1024);
      const line = {
        t: Date.now(),
        rss: kb(rss),
        heapTotal: kb(heapTotal),
        heapUsed: kb(heapUsed),
        external: kb(external),
        arrayBuffers: kb(arrayBuffers),
        handles,
      };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    },
    Number(process.env.SOAK_PROBE_MS ?? 10_000),
  );
  timer.unref();
}
