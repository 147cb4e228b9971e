import { useEffect } from 'react';
import { api } from '../../api/client.ts';
import type { Check } from '../../api/types.ts';
import { ErrorMessage, Loading } from '../../components/status.tsx';
import { formatBytes, formatLongDuration, plural } from '../../format.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { DeadAirSkips } from './dead-air-skips.tsx';

function Health({ name, check, detail }: { name: string; check: Check; detail?: string }) {
  return (
    <li className={`health ${check.ok ? 'ok' : 'bad'}`}>
      <span className="health-dot" aria-hidden="true" />
      <span className="health-name">{name}</span>
      <span className="health-state">{check.ok ? 'OK' : 'Down'}</span>
      <span className="muted small">
        {[
          detail,
          check.latencyMs !== null ? `${Math.round(check.latencyMs)} ms` : null,
          check.error,
        ]
          .filter(Boolean)
          .join(' · ')}
      </span>
    </li>
  );
}

export function SystemTab() {
  const system = useAsync((signal) => api.system(signal), []);
  const { reload } = system;
  useEffect(() => {
    const timer = setInterval(reload, 10_000);
    return () => clearInterval(timer);
  }, [reload]);
  const data = system.data;
  return (
    <div className="stack">
      {system.error ? <ErrorMessage error={system.error} onRetry={reload} /> : null}
      {!data && system.loading ? <Loading label="Checking every service…" /> : null}
      {data ? (
        <>
          <section className="card" aria-labelledby="health-heading">
            <div className="section-head">
              <h2 id="health-heading">Services</h2>
              <button type="button" className="button small ghost" onClick={reload}>
                Refresh
              </button>
            </div>
            <ul className="health-list" data-testid="health">
              <Health
                name="API"
                check={{ ok: true, latencyMs: null, error: null }}
                detail={`v${data.versions.api}`}
              />
              <Health name="Database" check={data.health.db} detail={data.health.db.dialect} />
              <Health name="Message bus" check={data.health.bus} detail={data.health.bus.kind} />
              <Health name="Stream server" check={data.health.stream} />
              <Health name="Scheduler" check={data.health.scheduler} />
              {data.redis.used ? (
                <Health
                  name="Redis"
                  check={{
                    ok: !!data.redis.ok,
                    latencyMs: data.redis.latencyMs,
                    error: data.redis.error,
                  }}
                />
              ) : null}
            </ul>
          </section>
          <section className="card" aria-labelledby="api-heading">
            <h2 id="api-heading">API process</h2>
            <dl className="stats">
              <div>
                <dt>Uptime</dt>
                <dd>{formatLongDuration(data.uptime.api)}</dd>
              </div>
              <div>
                <dt>Memory (RSS)</dt>
                <dd>{formatBytes(data.memory.rss)}</dd>
              </div>
              <div>
                <dt>Heap</dt>
                <dd>
                  {formatBytes(data.memory.heapUsed)} / {formatBytes(data.memory.heapTotal)}
                </dd>
              </div>
              <div>
                <dt>Node</dt>
                <dd>{data.versions.node}</dd>
              </div>
              <div>
                <dt>Sessions</dt>
                <dd>{data.sessions.store}</dd>
              </div>
              <div>
                <dt>Live clients</dt>
                <dd>{data.sse.clients}</dd>
              </div>
              <div>
                <dt>Library</dt>
                <dd>{plural(data.library.ok, 'track')}</dd>
              </div>
              <div>
                <dt>Database</dt>
                <dd>
                  {data.db.dialect} {data.db.ok ? '' : '(down)'}
                </dd>
              </div>
            </dl>
          </section>
        </>
      ) : null}
      <DeadAirSkips />
    </div>
  );
}
