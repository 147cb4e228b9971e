import { useId } from 'react';
import { CHART_HEIGHT, CHART_WIDTH, ChartAxes, chartFrame, stepPath } from './chart-frame.tsx';

export interface ReportPoint {
  at: string;
  listeners: number;
}

const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

/** A time label: the time of day within two days, the date beyond. */
function label(t: number, span: number): string {
  const date = new Date(t);
  if (span <= 48 * 3_600_000) {
    return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  }
  return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

/**
 * The listeners report's series as an SVG step line, drawn like the live listeners chart
 * (no chart library): each value holds for its minute or hour.
 */
export function ReportChart({
  series,
  from,
  to,
  step,
}: {
  series: readonly ReportPoint[];
  from: string;
  to: string;
  step: 'minute' | 'hour';
}) {
  const titleId = useId();
  const descId = useId();
  const start = Date.parse(from);
  const end = Date.parse(to);
  const span = Math.max(1, end - start);
  const points = series.map((p) => [Date.parse(p.at), p.listeners] as [number, number]);
  const max = Math.max(0, ...points.map(([, v]) => v));
  const frame = chartFrame(start, span, max, PAD);
  const { x, y } = frame;
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        className="chart-svg"
      >
        <title id={titleId}>Listeners per {step}</title>
        <desc id={descId}>
          From {new Date(start).toLocaleString()} to {new Date(end).toLocaleString()}, at most {max}
          .
        </desc>
        <ChartAxes frame={frame} pad={PAD} label={(t) => label(t, span)} />
        <path d={stepPath(points, end, x, y)} className="chart-line" data-points={points.length} />
      </svg>
    </figure>
  );
}
