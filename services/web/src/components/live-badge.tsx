import { useLive } from '../hooks/use-live.ts';

/** "LIVE" and the DJ's name while a DJ is on air (not while the AutoDJ covers a silent one). */
export function LiveBadge() {
  const live = useLive((s) => s.live);
  const dj = live?.onAir && !live.silent ? live.onAir.dj : null;
  if (!dj) return null;
  return (
    <p className="live-badge" data-testid="live-badge" role="status">
      <span className="badge badge-live">LIVE</span> <span className="live-dj">{dj.name}</span>
    </p>
  );
}
