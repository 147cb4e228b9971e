import { useId } from 'react';
import type { ListenerSample } from '../api/live-store.ts';
import { formatTime } from '../format.ts';

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

/** A round upper bound for the y axis and its tick step: 0–5 listeners look like 0–5. */
export function niceScale(max: number): { top: number; step: number } {
  if (max <= 5) return { top: Math.max(1, Math.ceil(max)), step: 1 };
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const factor of [1, 2, 2.5, 5, 10]) {
    const step = (factor * magnitude) / 5;
    if (step * 5 >= max) return { top: step * 5, step };
  }
  return { top: max, step: max / 5 };
}

/** The SVG path of a step line through `points`, extended to `end`. */
export function stepPath(
  points: readonly [number, number][],
  end: number,
  x: (t: number) => number,
  y: (v: number) => number,
): string {
  if (points.length === 0) return '';
  const [t0, v0] = points[0] as [number, number];
  let d = `M${x(t0).toFixed(1)},${y(v0).toFixed(1)}`;
  for (const [t, v] of points.slice(1)) d += `H${x(t).toFixed(1)}V${y(v).toFixed(1)}`;
  return `${d}H${x(end).toFixed(1)}`;
}

const WIDTH = 960;
const HEIGHT = 300;
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
  const { top, step } = niceScale(max);

  const x = (t: number) => PAD.left + ((t - start) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - v / top) * (HEIGHT - PAD.top - PAD.bottom);
  const yTicks: number[] = [];
  for (let v = 0; v <= top + 1e-9; v += step) yTicks.push(v);
  const xTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => start + f * span);

  const latest = samples.at(-1);
  const summary = latest
    ? Object.entries(latest.mounts)
        .map(([mount, count]) => `${mount}: ${count}`)
        .join(', ')
    : 'no data yet';

  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        className="chart-svg"
      >
        <title id={titleId}>Listeners per mount since {formatTime(start)}</title>
        <desc id={descId}>Now: {summary}.</desc>
        {yTicks.map((v) => (
          <g key={`y${v}`}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(v)} y2={y(v)} className="chart-grid" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="chart-label">
              {Number.isInteger(v) ? v : v.toFixed(1)}
            </text>
          </g>
        ))}
        {xTicks.map((t, i) => (
          <text
            key={`x${t}`}
            x={x(t)}
            y={HEIGHT - 8}
            textAnchor={i === 0 ? 'start' : i === xTicks.length - 1 ? 'end' : 'middle'}
            className="chart-label"
          >
            {formatTime(t, span < 10 * 60 * 1000)}
          </text>
        ))}
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
