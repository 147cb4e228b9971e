import { API_BASE } from '../../api/paths.ts';

/** What the browser sends: Opus in WebM, the format MediaRecorder makes everywhere it can. */
export const GO_LIVE_TYPE = 'audio/webm;codecs=opus';
/** How often MediaRecorder hands over audio: the delay it adds before the live input. */
const TIMESLICE_MS = 200;

export type GoLiveState = 'idle' | 'connecting' | 'live' | 'ended';

export interface GoLiveHandlers {
  onState(state: GoLiveState, message?: string): void;
}

/** Why a go-live connection closed, in words for the DJ, from the api's close codes. */
function closeMessage(code: number, reason: string, opened: boolean): string {
  // The browser tells a page nothing of a refused upgrade (401, 403, 404): it closes with 1006.
  if (!opened) {
    return 'Could not connect: sign in again, or check on the DJ page that your broadcast credentials are enabled.';
  }
  if (code === 4001) return `The live input refused: ${reason || 'no reason given'}.`;
  if (code === 4002)
    return 'The live input ended the connection (an admin or DJ disconnected you).';
  if (code === 4003) return `Stopped: ${reason}.`;
  if (code === 1000 || code === 1005) return 'You are off air.';
  return `The connection was lost (${code}${reason ? `: ${reason}` : ''}).`;
}

/**
 * One broadcast from the browser: a WebSocket to the api (the session cookie goes with it),
 * then MediaRecorder's WebM/Opus chunks over it once the live input took the source.
 */
export class GoLiveSession {
  readonly #stream: MediaStream;
  readonly #handlers: GoLiveHandlers;
  #socket: WebSocket | null = null;
  #recorder: MediaRecorder | null = null;
  #stopping = false;

  constructor(stream: MediaStream, handlers: GoLiveHandlers) {
    this.#stream = stream;
    this.#handlers = handlers;
  }

  start(): void {
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${window.location.host}${API_BASE}/live/ws`);
    this.#socket = socket;
    this.#handlers.onState('connecting');
    let opened = false;
    socket.onopen = () => {
      opened = true;
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      const message = JSON.parse(event.data) as { type: string };
      if (message.type === 'connected') this.#record(socket);
    };
    socket.onclose = (event) => {
      if (this.#recorder?.state === 'recording') this.#recorder.stop();
      this.#recorder = null;
      this.#socket = null;
      this.#handlers.onState(
        'ended',
        this.#stopping ? 'You are off air.' : closeMessage(event.code, event.reason, opened),
      );
    };
  }

  stop(): void {
    this.#stopping = true;
    if (this.#recorder?.state === 'recording') this.#recorder.stop();
    this.#socket?.close(1000, 'the DJ stopped');
  }

  #record(socket: WebSocket): void {
    const recorder = new MediaRecorder(this.#stream, {
      mimeType: GO_LIVE_TYPE,
      audioBitsPerSecond: 128_000,
    });
    this.#recorder = recorder;
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0 && socket.readyState === WebSocket.OPEN) socket.send(event.data);
    };
    recorder.start(TIMESLICE_MS);
    this.#handlers.onState('live');
  }
}

/** The microphone's level in dBFS (RMS), read by the page's meter on every frame. */
/** How fast the shown level falls after a peak, in dB per second (a meter's release). */
const RELEASE_DB_PER_SECOND = 20;

export class LevelMeter {
  readonly #context: AudioContext;
  readonly #analyser: AnalyserNode;
  readonly #samples: Float32Array<ArrayBuffer>;
  /** The level shown, and when it was read (ms). */
  #shown = -100;
  #shownAt = 0;

  constructor(stream: MediaStream) {
    this.#context = new AudioContext();
    this.#analyser = this.#context.createAnalyser();
    this.#analyser.fftSize = 2048;
    this.#samples = new Float32Array(this.#analyser.fftSize);
    this.#context.createMediaStreamSource(stream).connect(this.#analyser);
  }

  /**
   * Browsers start an AudioContext suspended until the page is used (autoplay policy): the
   * meter reads silence until a click resumes it.
   */
  resume(): void {
    if (this.#context.state === 'suspended') void this.#context.resume();
  }

  /**
   * -100 for silence, 0 for full scale: the RMS of the last 2048 samples, held and let fall at
   * 20 dB/s like a mixer's meter, so a pause between words or beats does not flick to silence.
   */
  level(): number {
    const now = performance.now();
    this.#analyser.getFloatTimeDomainData(this.#samples);
    let sum = 0;
    for (const sample of this.#samples) sum += sample * sample;
    const rms = Math.sqrt(sum / this.#samples.length);
    const current = rms > 0 ? Math.max(-100, 20 * Math.log10(rms)) : -100;
    const fallen = this.#shown - ((now - this.#shownAt) / 1000) * RELEASE_DB_PER_SECOND;
    this.#shown = Math.max(-100, current, fallen);
    this.#shownAt = now;
    return this.#shown;
  }

  close(): void {
    void this.#context.close();
  }
}
