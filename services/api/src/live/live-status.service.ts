import {
  type Bus,
  type LiveKickResult,
  type LiveKickTarget,
  type LiveSource,
  type LiveState,
  type Logger,
  LogThrottle,
} from '@radio/core';
import type { SchedulerClient } from '../clients/scheduler-client.ts';
import type { LiveConnectionDto } from '../dtos/live.dto.ts';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import { readState } from '../services/bus-state.ts';

/** What the live input is doing when the scheduler has not said (yet): nobody on air. */
const OFF_AIR: LiveState = { onAir: null, waiting: [], silent: false, recording: false };

/** The formats a DJ's client may send, by Content-Type (the live input decodes each with ffmpeg). */
export const ACCEPTED_LIVE_FORMATS = [
  'audio/mpeg (MP3)',
  'audio/aac (AAC, ADTS)',
  'audio/ogg (Ogg Vorbis, Opus or FLAC)',
  'audio/webm (WebM/Opus)',
];

/** The sources a kick of `target` drops. */
function sourcesOf(state: LiveState, target: LiveKickTarget): LiveSource[] {
  const onAir = target !== 'waiting' && state.onAir ? [state.onAir] : [];
  return [...onAir, ...(target === 'on_air' ? [] : state.waiting)];
}

/**
 * The live input as the scheduler reports it on the bus, and kicking its sources: an admin
 * drops anyone, a DJ only itself (on air or waiting), never another DJ.
 */
export class LiveStatusService {
  readonly #bus: Bus;
  readonly #scheduler: SchedulerClient;
  readonly #liveUrl: URL;
  readonly #log: Logger;
  readonly #refusals = new LogThrottle();

  constructor(bus: Bus, scheduler: SchedulerClient, liveUrl: string, logger: Logger) {
    this.#bus = bus;
    this.#scheduler = scheduler;
    this.#liveUrl = new URL(liveUrl);
    this.#log = logger;
  }

  async state(): Promise<LiveState> {
    return (await readState(this.#bus, 'live-state', this.#log)) ?? OFF_AIR;
  }

  async kick(target: LiveKickTarget, user: AuthUser): Promise<LiveKickResult> {
    if (user.role === 'admin') return this.#scheduler.request('live.kick', { target });
    const covered = sourcesOf(await this.state(), target);
    if (covered.length > 0 && covered.every((s) => s.dj.id !== user.id)) {
      this.#refused(user, covered);
    }
    // The scheduler drops this DJ's sources only, whoever connected since the state was read.
    return this.#scheduler.request('live.kick', { target, djId: user.id });
  }

  #refused(user: AuthUser, others: LiveSource[]): never {
    const names = others.map((s) => s.dj.name).join(' and ');
    const held = this.#refusals.take(`kick:${user.id}`);
    if (held !== null) {
      this.#log.info(
        { userId: user.id, others: names, held },
        'refused: a DJ tried to kick another DJ',
      );
    }
    throw new ApiError(
      'API_FORBIDDEN',
      `a DJ disconnects only itself; ${names} ${others.length > 1 ? 'are' : 'is'} another DJ (ask an admin)`,
    );
  }

  /** The port DJs connect to: LIVE_URL's, which compose publishes as LIVE_PUBLISH_PORT. */
  connection(): LiveConnectionDto {
    const port = Number(this.#liveUrl.port) || 80;
    return { port, mount: '/live', formats: ACCEPTED_LIVE_FORMATS };
  }
}
