import { api } from '../api/client.ts';
import { formatTime } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useLive } from '../hooks/use-live.ts';
import { entryLine } from '../programming.ts';

/** The next three tracks the scheduler plans, asked again on each new plan. */
export function ComingUp() {
  const revision = useLive((s) => s.timeline?.revision ?? null);
  const next = useAsync((signal) => api.comingUp(signal), [revision]);
  const entries = next.data?.entries ?? [];
  // Nothing to say when the api does not know (no scheduler): the rest of the page still works.
  if (next.error || (next.data && entries.length === 0)) return null;
  return (
    <section className="card coming-up" aria-labelledby="coming-up-heading" data-testid="coming-up">
      <h2 id="coming-up-heading">Coming up</h2>
      {next.data ? (
        <ol className="recent-list">
          {entries.map((entry) => (
            <li key={`${entry.at}-${entry.track?.id ?? 'live'}`}>
              <time dateTime={new Date(entry.at).toISOString()}>{formatTime(entry.at)}</time>
              <span className="recent-title">{entry.track?.title ?? entryLine(entry)}</span>
              <span className="recent-artist">
                {entry.track ? (entry.track.artist ?? 'Unknown artist') : ''}
                {entry.source === 'request' ? ' · requested' : ''}
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">Asking the scheduler…</p>
      )}
    </section>
  );
}
