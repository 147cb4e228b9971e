import { api } from '../api/client.ts';
import { positionNow } from '../api/live-store.ts';
import type { NowPlaying as NowPlayingData } from '../api/types.ts';
import { formatDuration } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useLive } from '../hooks/use-live.ts';
import { useNow } from '../hooks/use-now.ts';
import { useSession } from '../hooks/use-session.ts';
import { CoverArt } from './cover-art.tsx';
import { ProgressBar } from './progress-bar.tsx';

const SOURCE_LABEL: Record<NowPlayingData['source'], string> = {
  request: 'Requested',
  rotation: 'Rotation',
  playlist: 'Playlist',
  new: 'New in the library',
  live: 'Live',
};

/** Whether the track has cover art: only a signed-in user may ask (the cover route needs a session). */
function useHasCover(trackId: number | null | undefined): boolean {
  const { user } = useSession();
  const { data } = useAsync(
    (signal) => (user && trackId ? api.track(trackId, signal) : Promise.resolve(null)),
    [user?.id, trackId],
  );
  return !!data && data.id === trackId && data.hasCover;
}

/** The track on air: cover, title, artist, album and how far into it the station is. */
export function NowPlaying({ size = 'large' }: { size?: 'large' | 'medium' }) {
  const nowPlaying = useLive((s) => s.nowPlaying);
  const state = useLive((s) => s.player?.state ?? null);
  const live = useLive((s) => s);
  const now = useNow(1000);
  const hasCover = useHasCover(nowPlaying?.trackId);

  if (!nowPlaying) {
    return (
      <div className={`now-playing now-playing-${size}`} data-testid="now-playing">
        <CoverArt trackId={null} hasCover={false} seed="silence" size={size} />
        <div className="now-playing-text">
          <p className="eyebrow">
            {state === 'stopped' ? 'Off air' : 'Waiting for the first track'}
          </p>
          <h2 className="now-title">Nothing on air right now</h2>
        </div>
      </div>
    );
  }

  const position = positionNow(live, now) ?? 0;
  const duration = nowPlaying.duration;
  const shown = duration ? Math.min(position, duration) : position;
  return (
    <div
      className={`now-playing now-playing-${size}`}
      data-testid="now-playing"
      data-source={nowPlaying.source}
      data-started-at={nowPlaying.startedAt}
    >
      <CoverArt
        trackId={nowPlaying.trackId}
        hasCover={hasCover}
        seed={`${nowPlaying.artist ?? ''}${nowPlaying.album ?? nowPlaying.title}`}
        size={size}
        alt={`Cover of ${nowPlaying.album ?? nowPlaying.title}`}
      />
      <div className="now-playing-text">
        <p className="eyebrow">
          <span className={`on-air-dot ${state === 'paused' ? 'paused' : ''}`} aria-hidden="true" />
          {state === 'paused' ? 'Paused' : 'On air'} · {SOURCE_LABEL[nowPlaying.source]}
        </p>
        <h2 className="now-title" data-testid="now-title">
          {nowPlaying.title}
        </h2>
        <p className="now-artist">{nowPlaying.artist ?? 'Unknown artist'}</p>
        {nowPlaying.album ? <p className="now-album">{nowPlaying.album}</p> : null}
        {duration ? (
          <div className="now-progress">
            <ProgressBar
              value={shown}
              max={duration}
              label="Track progress"
              valueText={`${formatDuration(shown)} of ${formatDuration(duration)}`}
              tone="muted"
            />
            <div className="now-times">
              <span>{formatDuration(shown)}</span>
              <span>{formatDuration(duration)}</span>
            </div>
          </div>
        ) : null}
      </div>
    </div>
  );
}
