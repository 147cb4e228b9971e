import { useEffect } from 'react';
import { api } from '../api/client.ts';
import type { NowPlaying as NowPlayingData } from '../api/types.ts';
import { ComingUp } from '../components/coming-up.tsx';
import { FallbackBanner } from '../components/fallback-banner.tsx';
import { Link } from '../components/link.tsx';
import { LiveBadge } from '../components/live-badge.tsx';
import { NowPlaying } from '../components/now-playing.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { StreamPlayer } from '../components/stream-player.tsx';
import { formatAgo, formatTime, plural } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useLive } from '../hooks/use-live.ts';
import { useNow } from '../hooks/use-now.ts';
import { useSession } from '../hooks/use-session.ts';
import { useStreaming } from '../hooks/use-streaming.ts';
import { useTitle } from '../hooks/use-title.ts';

interface RecentItem {
  key: string;
  title: string;
  artist: string | null;
  startedAt: number;
}

function fromLive(item: NowPlayingData): RecentItem {
  return {
    key: `${item.startedAt}-${item.title}`,
    title: item.title,
    artist: item.artist,
    startedAt: item.startedAt,
  };
}

/** The last tracks played: the api's history for a signed-in user, else what this page saw. */
function RecentTracks() {
  const { user } = useSession();
  const seen = useLive((s) => s.recent);
  const nowPlaying = useLive((s) => s.nowPlaying);
  const now = useNow(30_000);
  const history = useAsync(
    (signal) => (user ? api.history({ limit: 11 }, signal) : Promise.resolve(null)),
    [user?.id, nowPlaying?.startedAt],
  );

  let items: RecentItem[];
  if (user && history.data) {
    items = history.data.items
      .filter((entry) => entry.endedAt !== null)
      .slice(0, 10)
      .map((entry) => ({
        key: String(entry.id),
        title: entry.title,
        artist: entry.artist,
        startedAt: Date.parse(entry.startedAt),
      }));
  } else {
    items = seen.map(fromLive);
  }

  return (
    <section className="card" aria-labelledby="recent-heading">
      <h2 id="recent-heading">Recently played</h2>
      {user && history.loading && !history.data ? <Loading inline /> : null}
      {user && history.error ? (
        <ErrorMessage error={history.error} onRetry={history.reload} />
      ) : null}
      {items.length === 0 && !(user && history.loading) ? (
        <p className="muted">
          {user
            ? 'Nothing has been played yet.'
            : 'Tracks played while this page is open appear here.'}
        </p>
      ) : (
        <ol className="recent-list">
          {items.map((item) => (
            <li key={item.key}>
              <time
                dateTime={new Date(item.startedAt).toISOString()}
                title={formatAgo(item.startedAt, now)}
              >
                {formatTime(item.startedAt)}
              </time>
              <span className="recent-title">{item.title}</span>
              <span className="recent-artist">{item.artist ?? 'Unknown artist'}</span>
            </li>
          ))}
        </ol>
      )}
      {user ? null : (
        <p className="muted small">
          <Link to="/signin">Sign in</Link> to see the full history.
        </p>
      )}
    </section>
  );
}

export function ListenPage() {
  useTitle('Listen');
  const streaming = useStreaming();
  const listeners = useLive((s) => s.listeners);
  const connection = useLive((s) => s.connection);
  const total = listeners?.total ?? streaming.data?.totalListeners ?? null;

  useEffect(() => {
    // Marks the first useful render for the browser test (performance.getEntriesByName).
    if (streaming.data && !performance.getEntriesByName('listen-ready').length) {
      performance.mark('listen-ready');
    }
  }, [streaming.data]);

  return (
    <section className="page listen" aria-labelledby="listen-heading">
      <h1 id="listen-heading" className="visually-hidden">
        Listen live
      </h1>
      <FallbackBanner />
      <div className="hero card">
        <LiveBadge />
        <NowPlaying />
        <div className="hero-player">
          {streaming.loading && !streaming.data ? <Loading label="Finding the streams…" /> : null}
          {streaming.error && !streaming.data ? (
            <Loading label="Cannot load the streams: reconnecting…" />
          ) : null}
          <StreamPlayer />
          <p className="listeners" data-testid="listener-count">
            {total === null ? 'Listener count unknown' : `${plural(total, 'listener')} tuned in`}
            {connection !== 'open' ? (
              <span className="muted"> · live updates reconnecting…</span>
            ) : null}
          </p>
        </div>
      </div>
      <ComingUp />
      <RecentTracks />
    </section>
  );
}
