/** The listener charts' drawing area, in SVG units. */
export const CHART_WIDTH = 960;
export const CHART_HEIGHT = 300;

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

export interface ChartPadding {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Where a time and a listener count land, and the ticks of both axes (five along time). */
export interface ChartFrame {
  x(t: number): number;
  y(v: number): number;
  yTicks: number[];
  xTicks: number[];
}

export function chartFrame(
  start: number,
  span: number,
  max: number,
  pad: ChartPadding,
): ChartFrame {
  const { top, step } = niceScale(max);
  const x = (t: number) => pad.left + ((t - start) / span) * (CHART_WIDTH - pad.left - pad.right);
  const y = (v: number) => pad.top + (1 - v / top) * (CHART_HEIGHT - pad.top - pad.bottom);
  const yTicks: number[] = [];
  for (let v = 0; v <= top + 1e-9; v += step) yTicks.push(v);
  const xTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => start + f * span);
  return { x, y, yTicks, xTicks };
}

/** The grid lines with their counts, and the time labels under them. */
export function ChartAxes({
  frame,
  pad,
  label,
}: {
  frame: ChartFrame;
  pad: ChartPadding;
  label: (t: number) => string;
}) {
  const { x, y, yTicks, xTicks } = frame;
  return (
    <>
      {yTicks.map((v) => (
        <g key={`y${v}`}>
          <line
            x1={pad.left}
            x2={CHART_WIDTH - pad.right}
            y1={y(v)}
            y2={y(v)}
            className="chart-grid"
          />
          <text x={pad.left - 6} y={y(v) + 4} textAnchor="end" className="chart-label">
            {Number.isInteger(v) ? v : v.toFixed(1)}
          </text>
        </g>
      ))}
      {xTicks.map((t, i) => (
        <text
          key={`x${t}`}
          x={x(t)}
          y={CHART_HEIGHT - 8}
          textAnchor={i === 0 ? 'start' : i === xTicks.length - 1 ? 'end' : 'middle'}
          className="chart-label"
        >
          {label(t)}
        </text>
      ))}
    </>
  );
}
