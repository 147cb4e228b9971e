import type { Socket } from 'node:net';
import type { Bus, EventType, LiveKickTarget, LiveSource, LiveState, Logger } from '@radio/core';
import { BYTES_PER_FRAME, secondsToFrames } from '../pcm.ts';
import type { Db } from '../repositories/db.ts';
import { AirMixer, type AutoDj } from './air-mixer.ts';
import type { LiveDj } from './dj-credentials.ts';
import { LiveSession } from './live-session.ts';
import { LiveShow } from './live-show.ts';
import type { LiveFormat } from './source-format.ts';

/** The mount a DJ broadcasts to on the live port. */
export const LIVE_MOUNT = '/live';

/** What the live input tells the mounts' titles and now-playing (NowPlaying). */
export interface LiveTitles {
  /**
   * A DJ (user `djId`) is heard with `title` from global frame `frame`; null: the AutoDJ's
   * titles again.
   */
  liveChanged(live: { title: string; dj: string; djId: number } | null, frame: number): void;
}

export interface LiveInputOptions {
  ffmpegPath: string;
  db: Db;
  bus: Bus;
  logger: Logger;
  titles: LiveTitles;
  autoDj: AutoDj;
  /** LIVE_FADE_SECONDS. */
  fadeSeconds: number;
  /** LIVE_SILENCE_SECONDS. */
  silenceSeconds: number;
  /** DATA_DIR/recordings, or null. */
  recordingsDir: string | null;
  /** A source that sends nothing for this long is dropped. */
  idleTimeoutMs: number;
}

export interface NewSource {
  dj: LiveDj;
  socket: Socket;
  address: string;
  declared: LiveFormat | null;
  chunked: boolean;
}

/** A promoted DJ is given this long to be heard before the AutoDJ comes back instead. */
const PROMOTION_GRACE_MS = 2000;
/** `live.state` is sent again this often while a source is connected (its bytes in move on). */
const STATE_REFRESH_MS = 5000;

/**
 * The live input: at most one DJ on air and one waiting. It decides, block by block, who is
 * heard (through the AirMixer), tells everyone when that changes (titles, now-playing, the
 * `live.*` events and the `live.state` key), keeps each show's row and recording, and hands
 * the air from a DJ who leaves straight to the one waiting.
 */
export class LiveInput {
  readonly #options: LiveInputOptions;
  readonly #log: Logger;
  readonly #mixer: AirMixer;
  readonly #silenceFrames: number;
  #onAir: LiveSession | null = null;
  #waiting: LiveSession[] = [];
  /** The DJ on air has been heard (its `live.connected` went out). */
  #announced = false;
  #promotedAt = 0;
  #silent = false;
  #show: LiveShow | null = null;
  #frame = 0;
  #listeners = 0;
  #nextId = 1;
  #closed = false;
  readonly #refresh: NodeJS.Timeout;

  constructor(options: LiveInputOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.#mixer = new AirMixer(options.autoDj, options.fadeSeconds);
    this.#silenceFrames = secondsToFrames(options.silenceSeconds);
    this.#refresh = setInterval(() => {
      if (this.#onAir) this.#publishState();
    }, STATE_REFRESH_MS);
  }

  /** Fills one playout block (in place of the AutoDJ alone). */
  produce(out: Float32Array, frames: number, startFrame: number): void {
    this.#frame = startFrame;
    const live = this.#onAir;
    if (live && !this.#announced && live.audible) this.#announce(live, startFrame);
    if (live && this.#announced) this.#followSilence(live, startFrame);
    const wanted =
      live !== null &&
      !this.#silent &&
      (this.#announced || Date.now() - this.#promotedAt < PROMOTION_GRACE_MS);
    this.#mixer.mix(out, frames, startFrame, live, wanted, this.#waiting);
    if (this.#show?.recording) {
      // A copy: the encoder's pipe may keep it past this block.
      this.#show.write(
        Buffer.from(new Uint8Array(out.buffer, out.byteOffset, frames * BYTES_PER_FRAME)),
      );
    }
  }

  /** A DJ's source passed its login: on air, waiting, or refused (a DJ on air and one waiting). */
  admit(source: NewSource): { ok: true; session: LiveSession } | { ok: false; reason: string } {
    if (this.#closed) return { ok: false, reason: 'the live input is closing' };
    if (this.#onAir && this.#waiting.length > 0) {
      const waiting = this.#waiting.map((s) => s.dj.name).join(', ');
      return {
        ok: false,
        reason: `${this.#onAir.dj.name} is on air and ${waiting} is waiting`,
      };
    }
    const session = new LiveSession({
      ...source,
      id: this.#nextId++,
      ffmpegPath: this.#options.ffmpegPath,
      logger: this.#log.child({ dj: source.dj.username, ip: source.address }),
      idleTimeoutMs: this.#options.idleTimeoutMs,
      onEnd: (ended, reason, fault) => this.#ended(ended, reason, fault),
      onChange: (changed) => this.#changed(changed),
    });
    if (this.#onAir) this.#waiting.push(session);
    else this.#onAir = session;
    this.#log.info(
      { dj: source.dj.username, ip: source.address, waiting: this.#onAir !== session },
      this.#onAir === session ? 'live source connected' : 'live source connected; waiting',
    );
    this.#publishState();
    return { ok: true, session };
  }

  /**
   * The DJ's client sent a title (updinfo; null: an empty one, back to `Live: <name>`); false
   * when that DJ has no source connected.
   */
  setTitle(djId: number, title: string | null): boolean {
    const session = [this.#onAir, ...this.#waiting].find((s) => s?.dj.id === djId);
    if (!session) return false;
    session.title = title;
    this.#changed(session);
    return true;
  }

  /** Drops the DJ on air, those waiting, or all (only `djId`'s of them if given); returns whom. */
  kick(target: LiveKickTarget, djId?: number): LiveDj[] {
    const onAir = target === 'waiting' ? [] : [this.#onAir];
    const waiting = target === 'on_air' ? [] : [...this.#waiting];
    const kicked = [...waiting, ...onAir].filter(
      (s): s is LiveSession => s !== null && (djId === undefined || s.dj.id === djId),
    );
    for (const session of kicked) session.end(`kicked (${target})`, false);
    return kicked.map((s) => s.dj);
  }

  /** The station's listener count changed (for the show's peak). */
  listeners(total: number): void {
    this.#listeners = total;
    this.#show?.listeners(total);
  }

  state(): LiveState {
    const source = (s: LiveSession): LiveSource => ({
      dj: { id: s.dj.id, name: s.dj.name },
      since: s.since,
      title: s.title,
      bytesIn: s.bytesIn,
      format: s.format,
    });
    return {
      onAir: this.#onAir ? source(this.#onAir) : null,
      waiting: this.#waiting.map(source),
      silent: this.#silent,
      recording: this.#show?.recording ?? false,
    };
  }

  /** Drops every source and completes the show. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#refresh);
    const show = this.#show;
    this.kick('all');
    await show?.end(); // the same end the kick started: waits for the recording to close
  }

  #announce(session: LiveSession, frame: number): void {
    this.#announced = true;
    this.#silent = false;
    this.#show = new LiveShow({
      dj: session.dj,
      db: this.#options.db,
      recordingsDir: this.#options.recordingsDir,
      ffmpegPath: this.#options.ffmpegPath,
      logger: this.#log.child({ dj: session.dj.username }),
      listeners: this.#listeners,
      onRecordingError: () => this.#publishState(),
    });
    this.#options.titles.liveChanged(this.#title(session), frame);
    this.#log.info({ dj: session.dj.username, format: session.format }, 'live: the DJ is on air');
    this.#event('live.connected', session);
    this.#publishState();
  }

  #followSilence(session: LiveSession, frame: number): void {
    if (!this.#silent && session.silentFrames >= this.#silenceFrames) {
      this.#silent = true;
      this.#options.titles.liveChanged(null, frame);
      this.#log.info({ dj: session.dj.username }, 'live: the DJ is silent; the AutoDJ takes over');
      this.#send(
        'live.silent',
        this.#options.bus.publish('live.silent', {
          ...this.#session(session),
          silentSeconds: session.silentFrames / secondsToFrames(1),
        }),
      );
      this.#publishState();
    } else if (this.#silent && session.silentFrames === 0 && session.audible) {
      this.#silent = false;
      this.#options.titles.liveChanged(this.#title(session), frame);
      this.#log.info({ dj: session.dj.username }, 'live: sound is back; the DJ is on air again');
      this.#event('live.resumed', session);
      this.#publishState();
    }
  }

  #ended(session: LiveSession, reason: string, fault: boolean): void {
    const fields = {
      dj: session.dj.username,
      ip: session.address,
      reason,
      bytesIn: session.bytesIn,
    };
    if (fault) this.#log.warn(fields, 'live source dropped');
    else this.#log.info(fields, 'live source left');
    this.#waiting = this.#waiting.filter((s) => s !== session);
    if (session === this.#onAir) {
      const wasHeard = this.#announced;
      const show = this.#show;
      this.#onAir = null;
      this.#announced = false;
      this.#silent = false;
      this.#show = null;
      void show?.end();
      if (wasHeard) this.#event('live.disconnected', session);
      const next = this.#waiting.shift() ?? null;
      if (next) {
        this.#onAir = next;
        this.#promotedAt = Date.now();
        this.#log.info({ dj: next.dj.username }, 'live: the waiting DJ takes over');
      } else if (wasHeard) {
        this.#options.titles.liveChanged(null, this.#frame);
      }
    }
    this.#publishState();
  }

  #changed(session: LiveSession): void {
    if (session === this.#onAir && this.#announced && !this.#silent) {
      this.#options.titles.liveChanged(this.#title(session), this.#frame);
    }
    this.#publishState();
  }

  #title(session: LiveSession): { title: string; dj: string; djId: number } {
    const { dj } = session;
    return { title: session.title ?? `Live: ${dj.name}`, dj: dj.name, djId: dj.id };
  }

  #session(session: LiveSession): { dj: { id: number; name: string }; mount: string; at: number } {
    return { dj: { id: session.dj.id, name: session.dj.name }, mount: LIVE_MOUNT, at: Date.now() };
  }

  #event(
    type: 'live.connected' | 'live.disconnected' | 'live.resumed',
    session: LiveSession,
  ): void {
    this.#send(type, this.#options.bus.publish(type, this.#session(session)));
  }

  #publishState(): void {
    this.#send('live.state', this.#options.bus.publishState('live.state', this.state()));
  }

  #send(type: EventType, sending: Promise<void>): void {
    sending.catch((error: unknown) =>
      this.#log.warn({ err: error, type }, 'cannot publish on the bus'),
    );
  }
}
