import { trackLine } from '../format.ts';
import { useLive } from '../hooks/use-live.ts';
import { Link } from './link.tsx';
import { StreamPlayer } from './stream-player.tsx';

/** The stream player at the foot of every page but Listen, so music goes on while browsing. */
export function PlayerBar() {
  const nowPlaying = useLive((s) => s.nowPlaying);
  return (
    <aside className="player-bar" aria-label="Stream player">
      <StreamPlayer compact />
      <Link to="/" className="player-bar-track">
        <span className="eyebrow">On air</span>
        <span className="player-bar-title">
          {nowPlaying ? trackLine(nowPlaying) : 'Nothing on air'}
        </span>
      </Link>
    </aside>
  );
}
