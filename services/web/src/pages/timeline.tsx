import { useState } from 'react';
import { api } from '../api/client.ts';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useLive } from '../hooks/use-live.ts';
import { useTitle } from '../hooks/use-title.ts';
import { clockOf, entryLine, SOURCE_LABELS } from '../programming.ts';
import { ScheduleTabs } from './schedule/tabs.tsx';

const HOURS = [1, 3, 6, 12, 24] as const;

/**
 * What the scheduler plans to play (DJs and admins): asked of the api for the hours chosen, and
 * asked again whenever the scheduler announces a new plan on the event stream.
 */
export default function TimelinePage() {
  useTitle('Timeline');
  const [hours, setHours] = useState<number>(3);
  const revision = useLive((s) => s.timeline?.revision ?? null);
  const timeline = useAsync((signal) => api.timeline(hours, signal), [hours, revision]);
  const entries = timeline.data?.entries ?? [];

  return (
    <section className="page" aria-labelledby="timeline-heading">
      <div className="page-head">
        <h1 id="timeline-heading">Timeline</h1>
        <label className="inline-field">
          Next{' '}
          <select value={hours} onChange={(e) => setHours(Number(e.target.value))}>
            {HOURS.map((h) => (
              <option key={h} value={h}>
                {h} {h === 1 ? 'hour' : 'hours'}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ScheduleTabs current="timeline" />
      <p className="muted">
        What the scheduler plans to play, as planned now: a skip, a push, a request or a live DJ
        changes the plan, and this list follows.
        {timeline.data
          ? ` Plan ${timeline.data.revision} (${timeline.data.cause}); times in the station’s zone, ${timeline.data.timeZone}.`
          : ''}
      </p>
      {timeline.error ? <ErrorMessage error={timeline.error} onRetry={timeline.reload} /> : null}
      {timeline.loading && !timeline.data ? <Loading label="Asking the scheduler…" /> : null}
      {timeline.data && entries.length === 0 ? (
        <p className="empty">Nothing is planned: the library may be empty.</p>
      ) : null}
      {entries.length > 0 ? (
        <div className="table-wrap card">
          <table className="table timeline-table" data-testid="timeline">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Source</th>
                <th scope="col">What</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={`${entry.at}-${entry.track?.id ?? entry.dj?.id ?? 'live'}`}>
                  <td className="num">
                    <time dateTime={new Date(entry.at).toISOString()}>
                      {clockOf(entry.at, timeline.data?.timeZone)}
                    </time>
                  </td>
                  <td>
                    <span className={`badge source-${entry.source}`}>
                      {SOURCE_LABELS[entry.source]}
                    </span>
                    {entry.interrupts ? <span className="badge">interrupts</span> : null}
                  </td>
                  <td>
                    {entryLine(entry)}
                    {entry.playlist ? (
                      <span className="muted small"> · {entry.playlist.name}</span>
                    ) : null}
                  </td>
                  <td className="muted">{entry.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
