import type { MountStatus } from './api/types.ts';

export type AudioStatus = 'idle' | 'loading' | 'playing' | 'error';

export interface AudioState {
  mounts: MountStatus[];
  /** The chosen mount's path (`/radio.mp3`). */
  mount: string | null;
  /** The HLS master playlist, when the station has one. */
  hlsUrl: string | null;
  /** The listener chose HLS (the AAC variants, adaptive) over the chosen mount. */
  hls: boolean;
  status: AudioStatus;
  volume: number;
  muted: boolean;
  error: string | null;
}

const QUALITY_KEY = 'radio.mount';
const VOLUME_KEY = 'radio.volume';
const HLS_KEY = 'radio.hls';
const HLS_TYPE = 'application/vnd.apple.mpegurl';

function stored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode or storage full: the choice lasts for this page only.
  }
}

/** A mount as a listener names it: "High MP3" / "128 kbps", "AAC" / "96 kbps". */
export function mountParts(mount: MountStatus): { name: string; detail: string } {
  const quality = mount.quality === 'high' ? 'High' : 'Low';
  const name = mount.format === 'aac' ? 'AAC' : `${quality} ${mount.format.toUpperCase()}`;
  return { name, detail: `${mount.bitrate} kbps` };
}

/** The order of the quality switch: high MP3, AAC, low MP3, then anything else. */
export function sortMounts(mounts: readonly MountStatus[]): MountStatus[] {
  const rank = (m: MountStatus) => (m.format === 'mp3' ? (m.quality === 'high' ? 0 : 2) : 1);
  return [...mounts].sort((a, b) => rank(a) - rank(b) || b.bitrate - a.bitrate);
}

type Listener = () => void;

/** Media Source Extensions (or Safari's managed kind), which hls.js plays through. */
function hasMediaSource(): boolean {
  return 'MediaSource' in window || 'ManagedMediaSource' in window;
}

/** What plays an HLS playlist where the browser cannot (hls.js, loaded when first needed). */
interface HlsPlayback {
  destroy(): void;
}

/**
 * Plays `url` into `audio` with hls.js; `failed` is called on an error it cannot recover from.
 * Null when hls.js cannot play in this browser.
 */
async function attachHlsJs(
  audio: HTMLAudioElement,
  url: string,
  failed: () => void,
): Promise<HlsPlayback | null> {
  const { default: Hls } = await import('hls.js');
  if (!Hls.isSupported()) return null;
  const hls = new Hls();
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) failed();
  });
  hls.loadSource(url);
  hls.attachMedia(audio);
  return hls;
}

/**
 * The one <audio> element of the page. It lives outside React so the stream keeps playing
 * while the listener moves between pages.
 */
class AudioController {
  #state: AudioState;
  #audio: HTMLAudioElement | null = null;
  #hlsPlayback: HlsPlayback | null = null;
  /** Counts play/stop calls, so an hls.js that loads after a newer call is not attached. */
  #generation = 0;
  readonly #listeners = new Set<Listener>();

  constructor() {
    const volume = Number(stored(VOLUME_KEY) ?? '0.8');
    this.#state = {
      mounts: [],
      mount: null,
      hlsUrl: null,
      hls: stored(HLS_KEY) === 'on',
      status: 'idle',
      volume: Number.isFinite(volume) ? Math.min(1, Math.max(0, volume)) : 0.8,
      muted: false,
      error: null,
    };
  }

  getState = (): AudioState => this.#state;

  subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  setMounts(mounts: MountStatus[], hlsUrl: string | null = null): void {
    const sorted = sortMounts(mounts);
    const same =
      hlsUrl === this.#state.hlsUrl &&
      sorted.length === this.#state.mounts.length &&
      sorted.every((m, i) => {
        const old = this.#state.mounts[i];
        return (
          old &&
          old.mount === m.mount &&
          old.url === m.url &&
          old.sourceConnected === m.sourceConnected
        );
      });
    if (same) return;
    const wanted = this.#state.mount ?? stored(QUALITY_KEY);
    const mount = sorted.find((m) => m.mount === wanted)?.mount ?? sorted[0]?.mount ?? null;
    this.#set({ mounts: sorted, mount, hlsUrl });
  }

  /** HLS on or off; playing goes on in the new way. */
  selectHls(hls: boolean): void {
    if (hls === this.#state.hls) return;
    store(HLS_KEY, hls ? 'on' : 'off');
    const wasOn = this.#state.status === 'playing' || this.#state.status === 'loading';
    this.#set({ hls });
    if (wasOn) this.play();
  }

  selectMount(mount: string): void {
    if (mount === this.#state.mount) return;
    store(QUALITY_KEY, mount);
    const wasOn = this.#state.status === 'playing' || this.#state.status === 'loading';
    this.#set({ mount });
    if (wasOn) this.play();
  }

  play(): void {
    const mount = this.#state.mounts.find((m) => m.mount === this.#state.mount);
    if (!mount) {
      this.#set({ status: 'error', error: 'No stream is available right now.' });
      return;
    }
    const audio = this.#element();
    const generation = ++this.#generation;
    this.#detachHls();
    audio.volume = this.#state.volume;
    audio.muted = this.#state.muted;
    this.#set({ status: 'loading', error: null });
    const hlsUrl = this.#state.hls ? this.#state.hlsUrl : null;
    // hls.js wherever Media Source Extensions exist, as hls.js itself advises: Chromium's new
    // native HLS says it can play the playlist and then fails to parse its packed-audio
    // segments. The browser's own HLS is for those without MSE (iPhones before iOS 17.1).
    if (hlsUrl !== null && hasMediaSource()) {
      this.#playHlsJs(audio, hlsUrl, generation);
      return;
    }
    if (hlsUrl !== null && audio.canPlayType(HLS_TYPE) === '') {
      this.#set({ status: 'error', error: 'This browser cannot play HLS; choose Direct.' });
      return;
    }
    audio.src = hlsUrl ?? mount.url;
    this.#start(audio);
  }

  #playHlsJs(audio: HTMLAudioElement, url: string, generation: number): void {
    const failed = (): void => this.#fail(generation);
    attachHlsJs(audio, url, failed).then((playback) => {
      if (generation !== this.#generation) {
        playback?.destroy();
        return;
      }
      if (playback === null) {
        this.#set({ status: 'error', error: 'This browser cannot play HLS; choose Direct.' });
        return;
      }
      this.#hlsPlayback = playback;
      this.#start(audio);
    }, failed);
  }

  #fail(generation: number): void {
    if (generation !== this.#generation || this.#state.status === 'idle') return;
    this.#set({
      status: 'error',
      error: 'The stream could not be played. It may be offline; try another quality.',
    });
  }

  #detachHls(): void {
    this.#hlsPlayback?.destroy();
    this.#hlsPlayback = null;
  }

  #start(audio: HTMLAudioElement): void {
    audio.play().catch((error: unknown) => {
      if (this.#state.status === 'idle') return;
      const name = error instanceof DOMException ? error.name : '';
      // AbortError: a newer play() or stop() replaced this one.
      if (name === 'AbortError') return;
      this.#set({
        status: 'error',
        error:
          name === 'NotAllowedError'
            ? 'The browser blocked playback. Press play again.'
            : 'The stream could not be played. It may be offline; try another quality.',
      });
    });
  }

  stop(): void {
    const audio = this.#audio;
    this.#generation++;
    this.#detachHls();
    this.#set({ status: 'idle', error: null });
    if (!audio) return;
    audio.pause();
    // Dropping the source ends the download: a paused live stream would keep buffering.
    audio.removeAttribute('src');
    audio.load();
  }

  toggle(): void {
    if (this.#state.status === 'playing' || this.#state.status === 'loading') this.stop();
    else this.play();
  }

  setVolume(volume: number): void {
    const value = Math.min(1, Math.max(0, volume));
    store(VOLUME_KEY, String(value));
    if (this.#audio) this.#audio.volume = value;
    this.#set({ volume: value, muted: value === 0 ? this.#state.muted : false });
    if (this.#audio && value > 0) this.#audio.muted = false;
  }

  toggleMute(): void {
    const muted = !this.#state.muted;
    if (this.#audio) this.#audio.muted = muted;
    this.#set({ muted });
  }

  #element(): HTMLAudioElement {
    if (this.#audio) return this.#audio;
    const audio = new Audio();
    audio.preload = 'none';
    audio.addEventListener('playing', () => this.#set({ status: 'playing', error: null }));
    audio.addEventListener('waiting', () => {
      if (this.#state.status === 'playing') this.#set({ status: 'loading' });
    });
    audio.addEventListener('error', () => {
      if (this.#state.status === 'idle' || !audio.getAttribute('src')) return;
      this.#set({
        status: 'error',
        error: 'The stream could not be played. It may be offline; try another quality.',
      });
    });
    this.#audio = audio;
    return audio;
  }

  #set(patch: Partial<AudioState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener();
  }
}

export const audioPlayer = new AudioController();
