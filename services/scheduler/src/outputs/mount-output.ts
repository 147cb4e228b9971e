import { componentLogger, type Logger, type StationMount } from '@radio/core';
import { CHANNELS, SAMPLE_RATE } from '../pcm.ts';
import { IcecastOutput, type OutputStatus } from './icecast-output.ts';

/** What the `ice-*` headers say about the station. */
export interface StationInfo {
  readonly name: string;
  readonly description: string;
  readonly genre: string;
  readonly url: string;
  readonly public: boolean;
}

/** What a mount sees of the station's encoder: the process's health and its own output. */
export interface MountEncoder {
  readonly running: boolean;
  readonly restarts: number;
  /** PCM in the encoder not yet out of this mount's output, seconds. */
  readonly latencySeconds: number;
}

export interface MountOutputOptions {
  spec: StationMount;
  station: StationInfo;
  encoder: MountEncoder;
  streamUrl: URL;
  sourcePassword: string;
  admin?: { user: string; password: string } | undefined;
  logger: Logger;
  /** Reconnect delay bounds (tests shorten them). */
  backoffMs?: { min: number; max: number };
}

export interface MountStatus extends OutputStatus {
  readonly encoderRunning: boolean;
  readonly encoderRestarts: number;
  /** PCM in the encoder not yet out, seconds. */
  readonly encoderLatency: number;
  readonly title: string | null;
}

/**
 * One mount: its source connection, fed by the station's encoder, and the title change timed to
 * its audio.
 * A title is sent when the encoded audio of the track's first sample leaves for the stream
 * server, which is when listeners start hearing it, not when the track was decoded.
 */
export class MountOutput {
  readonly #spec: StationMount;
  readonly #encoder: MountEncoder;
  readonly #output: IcecastOutput;
  readonly #pending: { title: string; frame: number }[] = [];
  #title: string | null = null;

  constructor(options: MountOutputOptions) {
    const { spec, station } = options;
    this.#spec = spec;
    this.#encoder = options.encoder;
    const log = componentLogger(options.logger, 'output', { mount: spec.path });
    const name = spec.nameSuffix ? `${station.name} (${spec.nameSuffix})` : station.name;
    this.#output = new IcecastOutput({
      url: options.streamUrl,
      mount: spec.path,
      password: options.sourcePassword,
      admin: options.admin,
      contentType: spec.contentType,
      headers: {
        'ice-name': name,
        'ice-description': station.description,
        'ice-genre': station.genre,
        'ice-url': station.url,
        'ice-public': station.public ? '1' : '0',
        'ice-bitrate': String(spec.bitrate),
        'ice-audio-info': `channels=${CHANNELS};samplerate=${SAMPLE_RATE};bitrate=${spec.bitrate}`,
      },
      logger: log,
      backoffMs: options.backoffMs,
      // A stream server that restarted has forgotten the title.
      onConnected: () => {
        if (this.#title !== null) this.#output.updateMetadata(this.#title);
      },
    });
  }

  get mount(): string {
    return this.#spec.path;
  }

  get spec(): StationMount {
    return this.#spec;
  }

  /** Seconds between a PCM block entering the encoder and its audio leaving for the server. */
  get latencySeconds(): number {
    return this.#encoder.latencySeconds;
  }

  start(): void {
    this.#output.start();
  }

  stop(): Promise<void> {
    return this.#output.stop();
  }

  /** Switches the title when the audio of global frame `frame` goes out. */
  scheduleTitle(title: string, frame: number): void {
    this.#pending.push({ title, frame });
    // An encoder that is down produces no frames to pass the marks; only the latest matter.
    if (this.#pending.length > 16) this.#pending.splice(0, this.#pending.length - 16);
  }

  status(): MountStatus {
    return {
      ...this.#output.status(),
      encoderRunning: this.#encoder.running,
      encoderRestarts: this.#encoder.restarts,
      encoderLatency: this.#encoder.latencySeconds,
      title: this.#title,
    };
  }

  /** This mount's encoded frames; `endFrame` is the global frame their end was played at. */
  deliver(data: Buffer, endFrame: number): void {
    this.#output.write(data);
    let title: string | null = null;
    while (this.#pending.length > 0 && (this.#pending[0] as { frame: number }).frame < endFrame) {
      title = (this.#pending.shift() as { title: string }).title;
    }
    if (title !== null && title !== this.#title) {
      this.#title = title;
      if (this.#output.connected) this.#output.updateMetadata(title);
    }
  }
}
