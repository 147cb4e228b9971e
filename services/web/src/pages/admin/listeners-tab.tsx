import { useId, useState } from 'react';
import { ListenersChart } from '../../components/listeners-chart.tsx';
import { useLive } from '../../hooks/use-live.ts';
import { useNow } from '../../hooks/use-now.ts';

export function ListenersTab() {
  const samples = useLive((s) => s.listenerSeries);
  const listeners = useLive((s) => s.listeners);
  const now = useNow(5000);
  const [windowMs, setWindowMs] = useState(10 * 60 * 1000);
  const id = useId();
  return (
    <section className="card" aria-labelledby="listeners-heading">
      <div className="section-head">
        <h2 id="listeners-heading">
          Listeners{' '}
          {listeners ? <span className="muted small">({listeners.total} now)</span> : null}
        </h2>
        <div className="field compact inline">
          <label htmlFor={id}>Window</label>
          <select id={id} value={windowMs} onChange={(e) => setWindowMs(Number(e.target.value))}>
            <option value={5 * 60 * 1000}>5 minutes</option>
            <option value={10 * 60 * 1000}>10 minutes</option>
            <option value={30 * 60 * 1000}>30 minutes</option>
            <option value={60 * 60 * 1000}>1 hour</option>
          </select>
        </div>
      </div>
      <ListenersChart samples={samples} now={now} windowMs={windowMs} />
      {listeners ? (
        <table className="table compact-table" aria-label="Listeners per mount">
          <thead>
            <tr>
              <th scope="col">Mount</th>
              <th scope="col" className="num">
                Now
              </th>
              <th scope="col" className="num">
                Peak
              </th>
            </tr>
          </thead>
          <tbody>
            {listeners.mounts.map((mount) => (
              <tr key={mount.mount}>
                <td>
                  <code>{mount.mount}</code>
                </td>
                <td className="num">{mount.listeners}</td>
                <td className="num">{mount.peak}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="muted small">
        The chart follows the live counts from the stream server while this page is open.
      </p>
    </section>
  );
}
