import type { Logger, PlaybackState } from '@radio/core';
import type { Amplifier } from '../operators/amplify.ts';
import { mixCrossfade } from '../operators/crossfade.ts';
import { Limiter } from '../operators/limiter.ts';
import { CHANNELS, framesToSeconds, secondsToFrames } from '../pcm.ts';
import { isJingle, type QueueEntry } from '../sources/queue-entry.ts';
import { Deck, planDeck } from './deck.ts';

/** Where the player takes its tracks from (the upcoming list). */
export interface TrackSupply {
  head(): QueueEntry | null;
  /** Removes the entry that is going on air. */
  take(requestId: string): QueueEntry | null;
}

export type TrackEndReason = 'finished' | 'skipped' | 'stopped' | 'failed';

export interface PlayerEvents {
  /** The first audio of `entry` comes out at global frame `frame` (after the limiter's delay). */
  onTrackStart(entry: QueueEntry, frame: number): void;
  onTrackEnd(entry: QueueEntry, reason: TrackEndReason, playedSeconds: number): void;
  /**
   * The track could not be decoded at all and was skipped. `fileFault`: the file itself is bad
   * (it must not be offered again), not a process that failed to run.
   */
  onTrackFailed(entry: QueueEntry, reason: string, fileFault: boolean): void;
  onStateChange(state: PlaybackState): void;
  /** The next entry is being decoded ahead: it is committed to play next. */
  onNextPrepared?(entry: QueueEntry): void;
}

export interface PlayerOptions {
  ffmpegPath: string;
  /** MUSIC_DIR, absolute: track paths are relative to it. */
  musicDir: string;
  logger: Logger;
  /**
   * CROSSFADE_SECONDS: how long the incoming track fades in, and the overlap of a track without
   * a fade point; 0 joins tracks back to back.
   */
  crossfadeSeconds: number;
  /** LOUDNESS_TARGET: LUFS every track is levelled to, or null (off: tracks play as mastered). */
  loudnessTarget: number | null;
  supply: TrackSupply;
  amplifier: Amplifier;
  events: PlayerEvents;
  /** Fade applied to a skipped track, so a skip does not click. */
  skipFadeSeconds?: number;
}

export interface OnAir {
  readonly entry: QueueEntry;
  readonly position: number;
  /** Seconds played (cue-in to cue-out): exact once all is decoded, from analysis or tags before. */
  readonly duration: number | null;
  /** Global frame at which it started (its first audio out of the limiter). */
  readonly startFrame: number;
}

interface Fade {
  readonly total: number;
  /** Frames over which the incoming track comes up (at most `total`). */
  readonly fadeIn: number;
  done: number;
}

/**
 * The playout state machine and mixer. The clock asks it for each block of PCM; it reads the
 * on-air deck at its track's level, decodes the next track ahead, crossfades from the fade
 * point (or joins gaplessly when the crossfade is 0), applies amplify and then the true-peak
 * limiter, and plays silence while paused, stopped or with nothing to play. Everything here is
 * synchronous: the clock never waits for a file or a process.
 */
export class Player {
  readonly #options: PlayerOptions;
  readonly #log: Logger;
  readonly #crossfadeFrames: number;
  readonly #skipFadeFrames: number;
  readonly #limiter = new Limiter();
  #state: PlaybackState = 'playing';
  #current: Deck | null = null;
  #next: Deck | null = null;
  #outgoing: Deck | null = null;
  #fade: Fade | null = null;
  #frameBase = 0;
  #scratchA = new Float32Array(0);
  #scratchB = new Float32Array(0);
  #closed = false;
  /** For the metrics: blocks cut short because the decoder on air was behind; failed tracks. */
  readonly counts = { underruns: 0, decoderFailures: 0 };

  constructor(options: PlayerOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#crossfadeFrames = secondsToFrames(Math.max(0, options.crossfadeSeconds));
    this.#skipFadeFrames = secondsToFrames(options.skipFadeSeconds ?? 0.05);
  }

  /** Frames between the mix and what comes out of `produce` (the limiter's lookahead). */
  get latencyFrames(): number {
    return this.#limiter.latency;
  }

  get state(): PlaybackState {
    return this.#state;
  }

  /** The track on air (its first audio has been played), or null. */
  onAir(): OnAir | null {
    const deck = this.#current;
    if (!deck || deck.startFrame === null) return null;
    return {
      entry: deck.entry,
      position: framesToSeconds(deck.played),
      duration: deck.duration,
      startFrame: deck.startFrame,
    };
  }

  /**
   * Fills `frames` frames of `out` (interleaved float stereo) with the audio due at global
   * frame `startFrame`.
   */
  produce(out: Float32Array, frames: number, startFrame: number): void {
    this.#frameBase = startFrame;
    let filled = 0;
    if (this.#state === 'playing' && !this.#closed) {
      try {
        filled = this.#fill(out, frames);
      } catch (error) {
        // A bug here must not stop the clock: log it and play silence for this block.
        this.#log.error({ err: error }, 'player failed to fill a block');
        filled = 0;
      }
    }
    if (filled < frames) out.fill(0, filled * CHANNELS, frames * CHANNELS);
    this.#options.amplifier.process(out, frames, CHANNELS);
    // Always, even in silence: the limiter's delay line carries the last milliseconds out.
    this.#limiter.process(out, frames);
  }

  /** The head of the upcoming list changed: a deck decoded ahead for another entry is dropped. */
  refreshNext(): void {
    const next = this.#next;
    if (next && next.entry.requestId !== this.#options.supply.head()?.requestId) {
      this.#next = null;
      void next.decoder.dispose();
    }
  }

  /**
   * Starts decoding the head of the upcoming list now, not only once the track on air is fully
   * decoded: a cut planned ahead (a scheduled interrupt) then has its track ready at the cut.
   */
  prepareNext(): void {
    this.refreshNext();
    if (this.#next || this.#closed) return;
    this.#prepare();
  }

  /** Ends the track on air now (with a very short fade); the next one follows at once. */
  skip(): boolean {
    const deck = this.#current;
    const fading = this.#outgoing;
    if (fading) {
      this.#outgoing = null;
      this.#fade = null;
      void fading.decoder.dispose();
    }
    if (!deck) return fading !== null;
    this.#current = null;
    this.#endDeck(deck, 'skipped', false);
    const fade = Math.min(deck.decoder.bufferedFrames, this.#skipFadeFrames);
    if (fade > 0 && deck.startFrame !== null && this.#state === 'playing') {
      this.#outgoing = deck;
      this.#fade = { total: fade, fadeIn: fade, done: 0 };
    } else {
      void deck.decoder.dispose();
    }
    return true;
  }

  pause(): void {
    if (this.#state === 'playing') this.#setState('paused');
  }

  /** Back to playing from paused (same position) or stopped (the next track). */
  resume(): void {
    if (this.#state !== 'playing') this.#setState('playing');
  }

  /** Silence until `resume`; the track on air is dropped, not held. */
  stop(): void {
    if (this.#state === 'stopped') return;
    this.#dropAll('stopped');
    this.#setState('stopped');
  }

  /** Stops every decoder; the player plays silence from now on. */
  async close(): Promise<void> {
    this.#closed = true;
    const decks = [this.#current, this.#next, this.#outgoing];
    this.#dropAll('stopped');
    await Promise.all(decks.map((deck) => deck?.decoder.dispose()));
  }

  #setState(state: PlaybackState): void {
    this.#state = state;
    this.#options.events.onStateChange(state);
  }

  #dropAll(reason: TrackEndReason): void {
    const current = this.#current;
    const next = this.#next;
    const outgoing = this.#outgoing;
    this.#current = null;
    this.#next = null;
    this.#outgoing = null;
    this.#fade = null;
    if (current) this.#endDeck(current, reason, true);
    if (next) void next.decoder.dispose();
    if (outgoing) void outgoing.decoder.dispose();
  }

  #endDeck(deck: Deck, reason: TrackEndReason, dispose: boolean): void {
    if (deck.startFrame !== null) {
      this.#options.events.onTrackEnd(deck.entry, reason, framesToSeconds(deck.played));
    }
    if (dispose) void deck.decoder.dispose();
  }

  #newDeck(entry: QueueEntry): Deck {
    const { crossfadeSeconds, loudnessTarget } = this.#options;
    return new Deck(entry, planDeck(entry.track, { crossfadeSeconds, loudnessTarget }), {
      ffmpegPath: this.#options.ffmpegPath,
      musicDir: this.#options.musicDir,
      logger: this.#log.child({ requestId: entry.requestId, trackId: entry.track.id }),
    });
  }

  /** Makes the head of the upcoming list the current deck (decoded ahead if it was). */
  #startNext(): Deck | null {
    const supply = this.#options.supply;
    this.refreshNext();
    const head = supply.head();
    if (!head) return null;
    const deck = this.#next ?? this.#newDeck(head);
    this.#next = null;
    this.#current = deck;
    supply.take(head.requestId);
    return deck;
  }

  /** Decodes the next track once the current one is fully decoded (a few seconds ahead). */
  #preload(): void {
    const next = this.#next;
    if (next?.decoder.failedEmpty) {
      this.#next = null;
      this.#options.supply.take(next.entry.requestId);
      this.#failed(next);
      return;
    }
    if (next || !this.#current?.decoder.ended) return;
    this.#prepare();
  }

  #prepare(): void {
    const head = this.#options.supply.head();
    if (!head) return;
    this.#next = this.#newDeck(head);
    this.#options.events.onNextPrepared?.(head);
  }

  #failed(deck: Deck): void {
    const reason = deck.decoder.error ?? 'the decoder produced no audio';
    this.#log.warn({ path: deck.entry.track.path, reason }, 'track cannot be decoded; skipped');
    void deck.decoder.dispose();
    this.counts.decoderFailures += 1;
    this.#options.events.onTrackFailed(deck.entry, reason, deck.decoder.fileFault);
  }

  #announce(deck: Deck, offset: number): void {
    if (deck.startFrame !== null) return;
    deck.startFrame = this.#frameBase + offset + this.#limiter.latency;
    this.#options.events.onTrackStart(deck.entry, deck.startFrame);
  }

  #fill(out: Float32Array, frames: number): number {
    let pos = 0;
    // Each pass either fills audio or changes deck; the bound only guards against a bug.
    for (let pass = 0; pos < frames && pass < 32; pass++) {
      if (this.#outgoing) {
        pos += this.#mixFade(out, pos, frames - pos);
        continue;
      }
      const deck = this.#current ?? this.#startNext();
      if (!deck) break;
      const decoder = deck.decoder;
      if (decoder.failedEmpty) {
        this.#current = null;
        this.#failed(deck);
        continue;
      }
      if (decoder.ended && decoder.bufferedFrames === 0) {
        if (decoder.decodedFrames === 0) break; // ffmpeg's exit status is not in yet
        this.#current = null;
        this.#endDeck(deck, 'finished', true);
        continue;
      }
      this.#preload();
      const overlap = this.#overlap(deck);
      if (
        decoder.ended &&
        overlap > 0 &&
        decoder.bufferedFrames <= overlap &&
        deck.startFrame !== null &&
        (this.#next?.decoder.bufferedFrames ?? 0) > 0
      ) {
        this.#beginCrossfade(deck, decoder.bufferedFrames);
        continue;
      }
      let want = frames - pos;
      if (decoder.ended && overlap > 0 && decoder.bufferedFrames > overlap) {
        want = Math.min(want, decoder.bufferedFrames - overlap);
      }
      const got = deck.read(out, pos, want);
      if (got > 0) {
        this.#announce(deck, pos);
        deck.played += got;
        pos += got;
      }
      if (got < want && !decoder.ended) {
        this.counts.underruns += 1; // the decoder is behind: silence for now
        break;
      }
    }
    return pos;
  }

  /** Frames the next track overlaps the end of `deck`: none into or out of a jingle. */
  #overlap(deck: Deck): number {
    const next = this.#next?.entry ?? this.#options.supply.head();
    return isJingle(deck.entry) || isJingle(next) ? 0 : deck.plan.overlapFrames;
  }

  #beginCrossfade(deck: Deck, total: number): void {
    const incoming = this.#next as Deck;
    this.#next = null;
    this.#options.supply.take(incoming.entry.requestId);
    this.#endDeck(deck, 'finished', false);
    this.#outgoing = deck;
    this.#current = incoming;
    this.#fade = { total, fadeIn: this.#crossfadeFrames, done: 0 };
  }

  /** One stretch of a crossfade (or of a skip's fade-out into the next track). */
  #mixFade(out: Float32Array, pos: number, room: number): number {
    const outgoing = this.#outgoing as Deck;
    const fade = this.#fade as Fade;
    const frames = Math.min(room, fade.total - fade.done);
    const samples = frames * CHANNELS;
    if (this.#scratchA.length < samples) {
      this.#scratchA = new Float32Array(samples);
      this.#scratchB = new Float32Array(samples);
    }
    const a = this.#scratchA;
    const b = this.#scratchB;
    const gotA = outgoing.read(a, 0, frames);
    if (gotA < frames) a.fill(0, gotA * CHANNELS, samples);
    const incoming = this.#current ?? this.#startNext();
    let gotB = 0;
    if (incoming && !incoming.decoder.failedEmpty) {
      gotB = incoming.read(b, 0, frames);
      if (gotB > 0) {
        this.#announce(incoming, pos);
        incoming.played += gotB;
      }
    }
    if (gotB < frames) b.fill(0, gotB * CHANNELS, samples);
    mixCrossfade(out, pos, a, b, frames, fade, CHANNELS);
    fade.done += frames;
    if (fade.done >= fade.total || (gotA === 0 && outgoing.decoder.ended)) {
      this.#outgoing = null;
      this.#fade = null;
      void outgoing.decoder.dispose();
    }
    return frames;
  }
}
