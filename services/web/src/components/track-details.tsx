import type { ReactNode } from 'react';
import type { Track, TrackAnalysis } from '../api/types.ts';
import { formatAgo, formatBytes, formatCuePoint, formatDuration, formatLevel } from '../format.ts';
import { Dialog } from './dialog.tsx';

const ANALYSIS_STATUS: Record<TrackAnalysis['status'], string> = {
  pending: 'Waiting for analysis',
  done: 'Analysed',
  failed: 'Could not be analysed',
};

function Fact({ term, children, id }: { term: string; children: ReactNode; id?: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd data-testid={id}>{children}</dd>
    </>
  );
}

/** What the background analysis measured: levels, then where the track starts and ends. */
function AnalysisFacts({ analysis }: { analysis: TrackAnalysis }) {
  const analysed = analysis.status === 'done';
  return (
    <dl className="track-facts" data-testid="track-analysis" data-status={analysis.status}>
      <Fact term="Analysis" id="analysis-status">
        {ANALYSIS_STATUS[analysis.status]}
        {analysis.analyzedAt ? (
          <span className="muted"> · {formatAgo(analysis.analyzedAt)}</span>
        ) : null}
      </Fact>
      {analysis.error ? (
        <Fact term="Why" id="analysis-error">
          <span className="cell-error">{analysis.error}</span>
        </Fact>
      ) : null}
      {analysed ? (
        <>
          <Fact term="Loudness" id="analysis-loudness">
            {formatLevel(analysis.loudness, 'LUFS')}
          </Fact>
          <Fact term="Loudness range">{formatLevel(analysis.loudnessRange, 'LU')}</Fact>
          <Fact term="True peak">{formatLevel(analysis.truePeak, 'dBTP')}</Fact>
          <Fact term="Cue in">{formatCuePoint(analysis.cueIn)}</Fact>
          <Fact term="Fade point">{formatCuePoint(analysis.fadePoint)}</Fact>
          <Fact term="Cue out">{formatCuePoint(analysis.cueOut)}</Fact>
        </>
      ) : null}
      {analysis.replayGain !== null ? (
        <Fact term="ReplayGain tag">{formatLevel(analysis.replayGain, 'dB')}</Fact>
      ) : null}
    </dl>
  );
}

/** Everything the library knows about one track: its file, and how it will sound on air. */
export function TrackDetailsDialog({
  track,
  onClose,
}: {
  track: Track | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={track !== null} title={track?.title ?? 'Track'} onClose={onClose}>
      {track ? (
        <div className="stack" data-testid="track-details">
          <dl className="track-facts">
            <Fact term="Artist">{track.artist ?? 'Unknown'}</Fact>
            {track.album ? <Fact term="Album">{track.album}</Fact> : null}
            <Fact term="Length">{formatDuration(track.duration)}</Fact>
            <Fact term="File">
              <code>{track.path}</code>
            </Fact>
            <Fact term="Format">
              {[
                track.format,
                track.bitrate ? `${Math.round(track.bitrate / 1000)} kbit/s` : null,
                track.sampleRate ? `${track.sampleRate} Hz` : null,
                track.channels ? `${track.channels} ch` : null,
                formatBytes(track.size),
              ]
                .filter(Boolean)
                .join(' · ')}
            </Fact>
            {track.status !== 'ok' ? (
              <Fact term="Status">
                {track.status}
                {track.error ? <span className="cell-error"> {track.error}</span> : null}
              </Fact>
            ) : null}
          </dl>
          <AnalysisFacts analysis={track.analysis} />
          <div className="dialog-actions">
            <button type="button" className="button ghost" onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
