// /proc readings for the soak benchmark: the resident memory of one process, or of a process
// and every descendant (the scheduler and its ffmpeg children).
import { readdir, readFile } from 'node:fs/promises';

async function parents(): Promise<Map<number, number>> {
  const ppids = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const text = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    if (!text) continue; // the process ended while we looked
    ppids.set(Number(name), Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]));
  }
  return ppids;
}

/** `root` and all its live descendants. */
export async function processTree(root: number): Promise<number[]> {
  const ppids = await parents();
  const pids = [root];
  for (let i = 0; i < pids.length; i++) {
    for (const [pid, ppid] of ppids) if (ppid === pids[i]) pids.push(pid);
  }
  return pids.filter((pid) => ppids.has(pid));
}

/** Resident set size in KB (0 when the process is gone). */
export async function rssKb(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmRSS:\s+(\d+)/m.exec(text)?.[1] ?? 0);
}

export async function treeRssKb(root: number): Promise<{ kb: number; processes: number }> {
  const pids = await processTree(root);
  const sizes = await Promise.all(pids.map(rssKb));
  return { kb: sizes.reduce((sum, kb) => sum + kb, 0), processes: pids.length };
}

/** Least-squares slope of y over x (NaN with fewer than two distinct x). */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

/**
 * The process tree's RSS sampled every `intervalMs`: decoders come and go with the tracks, so
 * one reading says more about which ffmpeg happened to be alive than about growth; the mean
 * over the samples since the last `take()` does not.
 */
export class TreeSampler {
  readonly #root: number;
  readonly #timer: NodeJS.Timeout;
  #samples: { kb: number; processes: number }[] = [];

  constructor(root: number, intervalMs = 2000) {
    this.#root = root;
    this.#timer = setInterval(() => {
      void treeRssKb(root).then((sample) => this.#samples.push(sample));
    }, intervalMs);
  }

  /** Mean RSS (KB) and process count since the last call; one reading now when none. */
  async take(): Promise<{ kb: number; processes: number }> {
    const samples = this.#samples.length > 0 ? this.#samples : [await treeRssKb(this.#root)];
    this.#samples = [];
    const mean = (pick: (s: { kb: number; processes: number }) => number) =>
      samples.reduce((sum, s) => sum + pick(s), 0) / samples.length;
    return { kb: mean((s) => s.kb), processes: mean((s) => s.processes) };
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
