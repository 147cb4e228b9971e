import type { LibraryAnalysis } from '../../api/types.ts';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { plural } from '../../format.ts';
import { useLive } from '../../hooks/use-live.ts';

function summary(analysis: LibraryAnalysis, percent: number): string {
  const { state, pending, analysed, failed } = analysis;
  const measured = analysed + failed;
  if (state === 'running') {
    return `Analysing: ${measured.toLocaleString()} of ${(measured + pending).toLocaleString()} tracks (${percent}%)`;
  }
  if (pending > 0) return `Idle: ${plural(pending, 'track')} waiting.`;
  return `Idle: every playable track is measured (${plural(measured, 'track')}).`;
}

/**
 * The background loudness and cue analysis, beside the scan: live from `library.analysis`
 * events, else what `GET /admin/library/scan` said.
 */
export function AnalysisProgress({ fromApi }: { fromApi: LibraryAnalysis | null }) {
  const live = useLive((s) => s.analysis);
  const analysis = live ?? fromApi;
  if (!analysis) {
    return (
      <p className="muted" data-testid="analysis">
        The scheduler has not reported on the analysis yet.
      </p>
    );
  }
  const measured = analysis.analysed + analysis.failed;
  const total = measured + analysis.pending;
  const percent = total > 0 ? Math.floor((measured / total) * 100) : 100;
  return (
    <div className="scan" data-testid="analysis" data-state={analysis.state}>
      <ProgressBar
        value={measured}
        max={Math.max(1, total)}
        label="Analysis progress"
        valueText={`${percent}%`}
        tone={analysis.state === 'running' ? 'accent' : 'muted'}
      />
      <p className="scan-line" aria-live="polite">
        {summary(analysis, percent)}
      </p>
      <dl className="stats">
        <div>
          <dt>Analysed</dt>
          <dd data-testid="analysis-analysed">{analysis.analysed.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Waiting</dt>
          <dd data-testid="analysis-pending">{analysis.pending.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd data-testid="analysis-failed">{analysis.failed.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Speed</dt>
          <dd>{analysis.rate === null ? '–' : `${analysis.rate.toFixed(1)}× real time`}</dd>
        </div>
      </dl>
      {analysis.current.length > 0 ? (
        <p className="analysis-current muted small">Now: {analysis.current.join(', ')}</p>
      ) : null}
    </div>
  );
}
