import { useId } from 'react';
import type { ListenerSample } from '../api/live-store.ts';
import { formatTime } from '../format.ts';
import { CHART_HEIGHT, CHART_WIDTH, ChartAxes, chartFrame, stepPath } from './chart-frame.tsx';

export interface ChartSeries {
  mount: string;
  /** [time ms, listeners] pairs, oldest first, as steps: each value holds until the next. */
  points: [number, number][];
}

/** One series per mount from the samples; a mount missing from a sample counts as 0. */
export function seriesOf(samples: readonly ListenerSample[]): ChartSeries[] {
  const mounts = new Set<string>();
  for (const sample of samples) for (const mount of Object.keys(sample.mounts)) mounts.add(mount);
  return [...mounts].sort().map((mount) => ({
    mount,
    points: samples.map((sample) => [sample.t, sample.mounts[mount] ?? 0] as [number, number]),
  }));
}

/** The shortest span the x axis shows, so a page opened a moment ago still draws a line. */
const MIN_SPAN_MS = 60_000;
const PAD = { left: 36, right: 12, top: 12, bottom: 28 };
const STYLES = [
  { opacity: 1, dash: undefined },
  { opacity: 0.85, dash: '8 5' },
  { opacity: 0.7, dash: '2 4' },
  { opacity: 0.85, dash: '12 4 2 4' },
];

/** Listeners per mount over time, drawn as SVG step lines (no chart library). */
export function ListenersChart({
  samples,
  now,
  windowMs = 10 * 60 * 1000,
}: {
  samples: readonly ListenerSample[];
  now: number;
  windowMs?: number;
}) {
  const titleId = useId();
  const descId = useId();
  // The samples only reach back to when this page opened: the axis starts there, not at an
  // empty left part of the window.
  const oldest = samples[0]?.t ?? now;
  const start = Math.max(now - windowMs, Math.min(oldest, now - MIN_SPAN_MS));
  const span = now - start;
  // Keep the last sample before the window so the line starts at the left edge.
  const firstInside = samples.findIndex((sample) => sample.t >= start);
  const visible =
    firstInside === -1 ? samples.slice(-1) : samples.slice(Math.max(0, firstInside - 1));
  const clipped = visible.map((sample) => ({ ...sample, t: Math.max(sample.t, start) }));
  const series = seriesOf(clipped);
  const max = Math.max(0, ...clipped.flatMap((sample) => Object.values(sample.mounts)));
  const frame = chartFrame(start, span, max, PAD);
  const { x, y } = frame;

  const latest = samples.at(-1);
  const summary = latest
    ? Object.entries(latest.mounts)
        .map(([mount, count]) => `${mount}: ${count}`)
        .join(', ')
    : 'no data yet';

  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        className="chart-svg"
      >
        <title id={titleId}>Listeners per mount since {formatTime(start)}</title>
        <desc id={descId}>Now: {summary}.</desc>
        <ChartAxes frame={frame} pad={PAD} label={(t) => formatTime(t, span < 10 * 60 * 1000)} />
        {series.map((s, i) => {
          const style = STYLES[i % STYLES.length] as (typeof STYLES)[number];
          return (
            <path
              key={s.mount}
              d={stepPath(s.points, now, x, y)}
              className="chart-line"
              strokeOpacity={style.opacity}
              strokeDasharray={style.dash}
              data-mount={s.mount}
            />
          );
        })}
      </svg>
      <figcaption className="chart-legend">
        {series.length === 0 ? <span className="muted">Waiting for listener counts…</span> : null}
        {series.map((s, i) => {
          const style = STYLES[i % STYLES.length] as (typeof STYLES)[number];
          const last = s.points.at(-1)?.[1] ?? 0;
          return (
            <span key={s.mount} className="legend-item">
              <svg width="28" height="10" aria-hidden="true">
                <line
                  x1="0"
                  x2="28"
                  y1="5"
                  y2="5"
                  className="chart-line"
                  strokeOpacity={style.opacity}
                  strokeDasharray={style.dash}
                />
              </svg>
              {s.mount} <strong>{last}</strong>
            </span>
          );
        })}
      </figcaption>
    </figure>
  );
}
