import { useId } from 'react';
import { audioPlayer, mountParts } from '../audio.ts';
import { useAudio } from '../hooks/use-audio.ts';
import { PlayIcon, StopIcon, VolumeIcon } from './icons.tsx';

/** Play/stop, the quality switch and the volume of the page's stream player. */
export function StreamPlayer({ compact = false }: { compact?: boolean }) {
  const audio = useAudio();
  const name = useId();
  const delivery = useId();
  const on = audio.status === 'playing' || audio.status === 'loading';
  const statusText =
    audio.status === 'playing'
      ? 'Playing'
      : audio.status === 'loading'
        ? 'Connecting…'
        : audio.status === 'error'
          ? 'Stopped'
          : 'Stopped';

  return (
    <div className={compact ? 'stream-player compact' : 'stream-player'}>
      <button
        type="button"
        className={`play-button ${on ? 'on' : ''}`}
        onClick={() => audioPlayer.toggle()}
        aria-label={on ? 'Stop the stream' : 'Play the stream'}
        disabled={audio.mounts.length === 0}
      >
        {on ? <StopIcon size={compact ? 20 : 28} /> : <PlayIcon size={compact ? 20 : 28} />}
        {audio.status === 'loading' ? <span className="play-ring" aria-hidden="true" /> : null}
      </button>

      {compact ? null : (
        <fieldset className="segmented" aria-label="Stream quality" disabled={audio.hls}>
          <legend className="visually-hidden">Stream quality</legend>
          {audio.mounts.map((mount) => (
            <label key={mount.mount} className={mount.mount === audio.mount ? 'checked' : ''}>
              <input
                type="radio"
                name={name}
                value={mount.mount}
                checked={mount.mount === audio.mount}
                onChange={() => audioPlayer.selectMount(mount.mount)}
              />
              <span className="seg-name">{mountParts(mount).name}</span>
              <span className="seg-detail">{mountParts(mount).detail}</span>
            </label>
          ))}
        </fieldset>
      )}

      {compact || audio.hlsUrl === null ? null : (
        <fieldset className="segmented" aria-label="Delivery">
          <legend className="visually-hidden">Delivery</legend>
          {(['Direct', 'HLS'] as const).map((way) => {
            const hls = way === 'HLS';
            return (
              <label key={way} className={hls === audio.hls ? 'checked' : ''}>
                <input
                  type="radio"
                  name={delivery}
                  value={way}
                  checked={hls === audio.hls}
                  onChange={() => audioPlayer.selectHls(hls)}
                />
                <span className="seg-name">{way}</span>
                <span className="seg-detail">{hls ? 'AAC, adaptive' : 'chosen quality'}</span>
              </label>
            );
          })}
        </fieldset>
      )}

      <div className="volume">
        <button
          type="button"
          className="icon-button"
          aria-label={audio.muted ? 'Unmute' : 'Mute'}
          aria-pressed={audio.muted}
          onClick={() => audioPlayer.toggleMute()}
        >
          <VolumeIcon muted={audio.muted || audio.volume === 0} />
        </button>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={Math.round((audio.muted ? 0 : audio.volume) * 100)}
          aria-label="Volume"
          aria-valuetext={`${Math.round(audio.volume * 100)} percent`}
          onChange={(event) => audioPlayer.setVolume(Number(event.target.value) / 100)}
        />
      </div>

      {compact ? null : (
        <p className="stream-status" role="status">
          {audio.error ?? statusText}
        </p>
      )}
    </div>
  );
}
