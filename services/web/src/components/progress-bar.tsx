/** A determinate progress bar with an accessible name and value. */
export function ProgressBar({
  value,
  max,
  label,
  valueText,
  tone = 'accent',
}: {
  value: number;
  max: number;
  label: string;
  valueText?: string;
  tone?: 'accent' | 'muted';
}) {
  const safeMax = max > 0 ? max : 1;
  const clamped = Math.min(safeMax, Math.max(0, value));
  const percent = (clamped / safeMax) * 100;
  return (
    <div
      className={`progress progress-${tone}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={Math.round(safeMax)}
      aria-valuenow={Math.round(clamped)}
      aria-valuetext={valueText}
    >
      <div className="progress-fill" style={{ width: `${percent}%` }} />
    </div>
  );
}
