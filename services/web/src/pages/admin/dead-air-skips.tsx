import { formatAgo, formatTime } from '../../format.ts';
import { useLive } from '../../hooks/use-live.ts';
import { useNow } from '../../hooks/use-now.ts';

/** The dead-air guard's recent skips (`playout.dead_air` events since the page opened). */
export function DeadAirSkips() {
  const skips = useLive((s) => s.deadAir);
  const now = useNow(30_000);
  return (
    <section className="card" aria-labelledby="dead-air-heading">
      <h2 id="dead-air-heading">Dead air</h2>
      {skips.length === 0 ? (
        <p className="muted">No silent track has been skipped since this page opened.</p>
      ) : (
        <ul className="problem-list dead-air-list" data-testid="dead-air">
          {skips.map((skip) => (
            <li key={`${skip.at}-${skip.trackId ?? ''}`}>
              <time dateTime={new Date(skip.at).toISOString()} title={formatAgo(skip.at, now)}>
                {formatTime(skip.at, true)}
              </time>
              <span className="recent-title">{skip.title ?? 'Unknown track'}</span>
              <span className="muted">
                silent for {skip.silentSeconds.toFixed(1)} s, {skip.action}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
