import { api } from '../../api/client.ts';
import { describeError } from '../../api/errors.ts';
import type { LiveKickTarget, LiveSource } from '../../api/types.ts';
import { formatAgo, formatBytes } from '../../format.ts';
import { useLive } from '../../hooks/use-live.ts';
import { useNow } from '../../hooks/use-now.ts';
import { useSession } from '../../hooks/use-session.ts';
import { toast } from '../../hooks/use-toast.ts';
import { kickButtons } from './kick-buttons.ts';

function Source({ source, now }: { source: LiveSource; now: number }) {
  return (
    <span>
      <strong>{source.dj.name}</strong>
      {source.title ? ` · ${source.title}` : ''}
      <span className="muted small">
        {' '}
        · since {formatAgo(source.since, now)} · {source.format} · {formatBytes(source.bytesIn)} in
      </span>
    </span>
  );
}

/** Who is live and who waits, as the scheduler reports it; admins kick anyone, a DJ itself. */
export function LiveNow() {
  const live = useLive((s) => s.live);
  const { user } = useSession();
  const now = useNow(5000);
  const kick = async (target: LiveKickTarget) => {
    try {
      const { kicked } = await api.kickLive(target);
      toast(
        kicked.length
          ? `Disconnected ${kicked.map((dj) => dj.name).join(', ')}.`
          : 'Nobody to disconnect.',
      );
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };
  const waiting = live?.waiting ?? [];
  const buttons = kickButtons(live, user);
  return (
    <section className="card" aria-labelledby="live-now-heading">
      <h2 id="live-now-heading">Live now</h2>
      {live?.onAir ? (
        <p data-testid="live-on-air">
          <span className="badge badge-live">LIVE</span> <Source source={live.onAir} now={now} />
          {live.silent ? <span className="badge badge-muted">silent: AutoDJ playing</span> : null}
          {live.recording ? <span className="badge">recording</span> : null}
        </p>
      ) : (
        <p className="muted">Nobody is live: the AutoDJ is on air.</p>
      )}
      {waiting.map((source) => (
        <p key={`${source.dj.id}-${source.since}`}>
          Waiting to take over: <Source source={source} now={now} />
        </p>
      ))}
      {buttons.length ? (
        <div className="row-actions">
          {buttons.map(({ target, label }) => (
            <button
              key={target}
              type="button"
              className={`button small danger${target === 'waiting' ? ' ghost' : ''}`}
              onClick={() => kick(target)}
            >
              {label}
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
