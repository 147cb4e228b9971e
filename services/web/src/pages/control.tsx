import { useEffect, useId, useRef, useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import { liveStore } from '../api/live-store.ts';
import type { PlaybackState, PlayerStatus, TrackSource } from '../api/types.ts';
import { PauseIcon, PlayIcon, SkipIcon, StopIcon } from '../components/icons.tsx';
import { NowPlaying } from '../components/now-playing.tsx';
import { Empty, ErrorMessage, Loading } from '../components/status.tsx';
import { formatDuration, formatTime, plural } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useLive } from '../hooks/use-live.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';

const KIND_LABEL: Record<TrackSource, string> = {
  request: 'request',
  rotation: 'rotation',
  playlist: 'playlist',
  new: 'new',
  live: 'live',
};

const STATE_LABEL: Record<PlaybackState, string> = {
  playing: 'Playing',
  paused: 'Paused',
  stopped: 'Stopped',
};

type Action = 'play' | 'pause' | 'resume' | 'stop' | 'skip';

function Transport() {
  const state = useLive((s) => s.player?.state ?? null);
  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<unknown>(null);

  const run = async (action: Action, label: string) => {
    setBusy(action);
    setError(null);
    try {
      const status: PlayerStatus = await api[action]();
      liveStore.applyPlayer(status);
      toast(`${label}: the player is ${STATE_LABEL[status.state].toLowerCase()}.`);
    } catch (reason) {
      setError(reason);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="transport-wrap">
      <p className="player-state">
        Scheduler reports:{' '}
        <strong className={`state state-${state ?? 'unknown'}`} data-testid="player-state">
          {state ? STATE_LABEL[state] : 'Unknown'}
        </strong>
      </p>
      <fieldset className="transport">
        <legend className="visually-hidden">Player controls</legend>
        <button
          type="button"
          className="button"
          onClick={() => run('play', 'Play')}
          disabled={busy !== null || state === 'playing'}
        >
          <PlayIcon size={18} /> Play
        </button>
        <button
          type="button"
          className="button"
          onClick={() => run('pause', 'Pause')}
          disabled={busy !== null || state !== 'playing'}
        >
          <PauseIcon size={18} /> Pause
        </button>
        <button
          type="button"
          className="button"
          onClick={() => run('resume', 'Resume')}
          disabled={busy !== null || state !== 'paused'}
        >
          <PlayIcon size={18} /> Resume
        </button>
        <button
          type="button"
          className="button"
          onClick={() => run('stop', 'Stop')}
          disabled={busy !== null || state === 'stopped'}
        >
          <StopIcon size={18} /> Stop
        </button>
        <button
          type="button"
          className="button"
          onClick={() => run('skip', 'Skip')}
          disabled={busy !== null || state === 'stopped'}
        >
          <SkipIcon size={18} /> Skip
        </button>
      </fieldset>
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}

function Amplify() {
  const amplify = useLive((s) => s.player?.amplify ?? null);
  const [value, setValue] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const id = useId();
  const shown = value ?? amplify ?? 1;

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const change = (next: number) => {
    setValue(next);
    if (timer.current) clearTimeout(timer.current);
    // One request when the slider rests, not one per pixel.
    timer.current = setTimeout(async () => {
      try {
        const result = await api.setAmplify(next);
        liveStore.setAmplify(result.amplify);
        setValue(null);
      } catch (reason) {
        setValue(null);
        toast(describeError(reason), 'error');
      }
    }, 300);
  };

  const db = shown > 0 ? 20 * Math.log10(shown) : Number.NEGATIVE_INFINITY;
  return (
    <div className="amplify">
      <label htmlFor={id}>Amplify</label>
      <input
        id={id}
        type="range"
        min={0}
        max={4}
        step={0.05}
        value={shown}
        disabled={amplify === null}
        aria-valuetext={`${shown.toFixed(2)} times`}
        onChange={(event) => change(Number(event.target.value))}
      />
      <output htmlFor={id} className="amplify-value">
        ×{shown.toFixed(2)}{' '}
        <span className="muted small">
          ({Number.isFinite(db) ? `${db >= 0 ? '+' : ''}${db.toFixed(1)} dB` : 'muted'})
        </span>
      </output>
    </div>
  );
}

function Queue() {
  const queue = useLive((s) => s.queue);
  return (
    <section className="card" aria-labelledby="queue-heading">
      <h2 id="queue-heading">
        Up next{' '}
        {queue ? <span className="muted small">({plural(queue.length, 'track')})</span> : null}
      </h2>
      {queue === null ? <Loading inline label="Loading the queue…" /> : null}
      {queue && queue.length === 0 ? (
        <Empty>The queue is empty: the rotation picks what comes next.</Empty>
      ) : null}
      {queue && queue.length > 0 ? (
        <ol className="queue-list" data-testid="queue">
          {queue.map((item) => (
            <li key={item.requestId}>
              <span className="item-text">
                <span className="cell-title">{item.title}</span>
                <span className="muted small">{item.artist ?? 'Unknown artist'}</span>
              </span>
              <span className={`badge badge-${item.kind}`}>{KIND_LABEL[item.kind]}</span>
              <span className="num muted">{formatDuration(item.duration)}</span>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}

function History() {
  const startedAt = useLive((s) => s.nowPlaying?.startedAt ?? null);
  const history = useAsync((signal) => api.history({ limit: 10 }, signal), [startedAt]);
  return (
    <section className="card" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {history.error ? <ErrorMessage error={history.error} onRetry={history.reload} /> : null}
      {history.loading && !history.data ? <Loading inline /> : null}
      {history.data && history.data.items.length === 0 ? <Empty>Nothing played yet.</Empty> : null}
      {history.data && history.data.items.length > 0 ? (
        <ol className="recent-list">
          {history.data.items.map((entry) => (
            <li key={entry.id}>
              <time dateTime={entry.startedAt}>{formatTime(entry.startedAt)}</time>
              <span className="recent-title">{entry.title}</span>
              <span className="recent-artist">{entry.artist ?? 'Unknown artist'}</span>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}

export default function ControlPage() {
  useTitle('Control');
  const player = useAsync((signal) => api.player(signal), []);

  useEffect(() => {
    if (player.data) liveStore.applyPlayer(player.data, true);
  }, [player.data]);

  return (
    <section className="page" aria-labelledby="control-heading">
      <div className="page-head">
        <h1 id="control-heading">Control</h1>
      </div>
      {player.error ? (
        <ErrorMessage error={player.error} onRetry={player.reload} title="Player" />
      ) : null}
      {player.loading && !player.data ? <Loading label="Asking the scheduler…" /> : null}
      <div className="card control-card">
        <NowPlaying size="medium" />
        <Transport />
        <Amplify />
      </div>
      <div className="split even">
        <Queue />
        <History />
      </div>
    </section>
  );
}
