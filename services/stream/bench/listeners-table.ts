/* The tables `bench:listeners` prints (Markdown, ready for the README). */

export interface Row {
  server: string;
  n: number;
  /** The server's CPU, % of one core. */
  cpu: number;
  rssMb: number;
  kbPerListener: number;
  /** Each listener's rate, % of the nominal bitrate. */
  rates: number[];
  below90: number;
  dropped: number;
  failed: number;
  /** First byte (stream) or response time (HLS), ms. */
  latencyMs: number[];
  /** The load generator's CPU, % of one core. */
  loadCpu: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
}

function mean(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

export function table(header: string[], lines: string[][]): void {
  const widths = header.map((h, i) =>
    Math.max(h.length, ...lines.map((l) => (l[i] as string).length)),
  );
  const format = (cells: string[]): string =>
    `| ${cells.map((c, i) => c.padStart(widths[i] as number)).join(' | ')} |`;
  console.log(format(header));
  // Right-aligned, in the form the formatter gives Markdown tables (ready for the README).
  console.log(format(widths.map((w) => `${'-'.repeat(w - 1)}:`)));
  for (const line of lines) console.log(format(line));
}

export function printRows(rows: Row[]): void {
  table(
    [
      'server',
      'N',
      'CPU % of a core',
      'RSS MB',
      'KB/listener',
      'rate mean %',
      'slowest %',
      '< 90 %',
      'drops',
      'failed',
      'first byte median ms',
      'p95 ms',
      'load gen CPU %',
    ],
    rows.map((r) => [
      r.server,
      r.n.toLocaleString('en'),
      r.cpu.toFixed(1),
      r.rssMb.toFixed(0),
      r.kbPerListener.toFixed(1),
      mean(r.rates).toFixed(1),
      Math.min(...r.rates).toFixed(1),
      String(r.below90),
      String(r.dropped),
      String(r.failed),
      percentile(r.latencyMs, 0.5).toFixed(1),
      percentile(r.latencyMs, 0.95).toFixed(1),
      r.loadCpu.toFixed(1),
    ]),
  );
  const ratios = rows
    .filter((r) => r.server === 'ours')
    .map((ours) => {
      const ice = rows.find((r) => r.server === 'icecast' && r.n === ours.n);
      return ice ? `N=${ours.n.toLocaleString('en')}: ${(ours.cpu / ice.cpu).toFixed(2)}×` : null;
    })
    .filter(Boolean);
  if (ratios.length) console.log(`\nCPU ours / Icecast: ${ratios.join(', ')} (target ≤ 0.8×)`);
}

export interface HlsFigures {
  /** The server's CPU with the sources alone, % of one core. */
  idleCpu: number;
  /** Listeners the server counted (its /health). */
  counted: number;
  requestsPerSecond: number;
  errors: number;
  /** Listeners that missed a segment, and the segments missed. */
  missedListeners: number;
  missedSegments: number;
  segment: number;
}

export function printHlsRow(row: Row, figures: HlsFigures): void {
  const cdn = row.server === 'cdn';
  console.log(
    cdn
      ? `\nHLS behind a CDN: ${row.n.toLocaleString('en')} listeners whose segments a CDN serves; their media playlists (private, they name the session) still come here once per ${figures.segment} s`
      : `\nHLS: ${row.n.toLocaleString('en')} listeners, each its media playlist and each new segment once per ${figures.segment} s (AAC 96 kbit/s), on kept-alive connections`,
  );
  console.log('');
  table(
    [
      cdn ? 'CDN listeners' : 'HLS listeners',
      'counted',
      'CPU % sources only',
      'CPU % with them',
      'per 1,000',
      'RSS MB',
      'requests/s',
      'errors',
      'rate mean %',
      'missed segments (listeners)',
      'response median ms',
      'p95 ms',
      'load gen CPU %',
    ],
    [
      [
        row.n.toLocaleString('en'),
        figures.counted.toLocaleString('en'),
        figures.idleCpu.toFixed(1),
        row.cpu.toFixed(1),
        (((row.cpu - figures.idleCpu) * 1000) / row.n).toFixed(2),
        row.rssMb.toFixed(0),
        figures.requestsPerSecond.toFixed(0),
        String(figures.errors),
        cdn ? '-' : mean(row.rates).toFixed(1),
        cdn ? '-' : `${figures.missedSegments} (${figures.missedListeners})`,
        percentile(row.latencyMs, 0.5).toFixed(1),
        percentile(row.latencyMs, 0.95).toFixed(1),
        row.loadCpu.toFixed(1),
      ],
    ],
  );
}
