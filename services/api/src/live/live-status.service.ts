import type { Bus, LiveKickResult, LiveKickTarget, LiveState, Logger } from '@radio/core';
import type { SchedulerClient } from '../clients/scheduler-client.ts';
import type { LiveConnectionDto } from '../dtos/live.dto.ts';
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

/** The live input as the scheduler reports it on the bus, and kicking its sources. */
export class LiveStatusService {
  readonly #bus: Bus;
  readonly #scheduler: SchedulerClient;
  readonly #liveUrl: URL;
  readonly #log: Logger;

  constructor(bus: Bus, scheduler: SchedulerClient, liveUrl: string, logger: Logger) {
    this.#bus = bus;
    this.#scheduler = scheduler;
    this.#liveUrl = new URL(liveUrl);
    this.#log = logger;
  }

  async state(): Promise<LiveState> {
    return (await readState(this.#bus, 'live-state', this.#log)) ?? OFF_AIR;
  }

  kick(target: LiveKickTarget): Promise<LiveKickResult> {
    return this.#scheduler.request('live.kick', { target });
  }

  /** The port DJs connect to: LIVE_URL's, which compose publishes as LIVE_PUBLISH_PORT. */
  connection(): LiveConnectionDto {
    const port = Number(this.#liveUrl.port) || 80;
    return { port, mount: '/live', formats: ACCEPTED_LIVE_FORMATS };
  }
}
