import { useId, useState } from 'react';
import { api } from '../../api/client.ts';
import { describeError } from '../../api/errors.ts';
import type { PlaylistDetail, PlayMode } from '../../api/types.ts';
import { PlayIcon } from '../../components/icons.tsx';
import { plural } from '../../format.ts';
import { toast } from '../../hooks/use-toast.ts';

/** Sends the playlist to the air, in place of the upcoming queue or after it. */
export function PlayOnAir({ playlist }: { playlist: PlaylistDetail }) {
  const [mode, setMode] = useState<PlayMode>('replace');
  const [busy, setBusy] = useState(false);
  const modeId = useId();
  const play = async () => {
    setBusy(true);
    try {
      const result = await api.playPlaylist(playlist.id, mode);
      toast(`${plural(result.queued, 'track')} sent to the air.`);
    } catch (reason) {
      toast(describeError(reason), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="play-on-air">
      <div className="field compact inline">
        <label htmlFor={modeId}>Queue</label>
        <select id={modeId} value={mode} onChange={(e) => setMode(e.target.value as PlayMode)}>
          <option value="replace">Replace</option>
          <option value="append">Append</option>
        </select>
      </div>
      <button
        type="button"
        className="button primary"
        onClick={play}
        disabled={busy || playlist.items.length === 0}
      >
        <PlayIcon size={18} /> {busy ? 'Sending…' : 'Play on air'}
      </button>
    </div>
  );
}
