import { componentLogger, type Logger, type StationMount } from '@radio/core';
import { encoderArgs } from './encoder-args.ts';
import { MountOutput, type MountStatus, type StationInfo } from './mount-output.ts';
import { StationEncoder } from './station-encoder.ts';

export interface StationOutputsOptions {
  mounts: readonly StationMount[];
  station: StationInfo;
  ffmpegPath: string;
  streamUrl: URL;
  sourcePassword: string;
  admin?: { user: string; password: string } | undefined;
  logger: Logger;
  /** Reconnect delay bounds (tests shorten them). */
  backoffMs?: { min: number; max: number };
}

/**
 * Everything the playout feeds: the one encoder process and a mount output per mount. A crash
 * of the encoder leaves the source connections up, so listeners stay connected through the
 * restart (they hear a short gap).
 */
export class StationOutputs {
  readonly mounts: readonly MountOutput[];
  readonly #encoder: StationEncoder;

  constructor(options: StationOutputsOptions) {
    const mounts: MountOutput[] = [];
    this.#encoder = new StationEncoder({
      ffmpegPath: options.ffmpegPath,
      logger: componentLogger(options.logger, 'encoder'),
      outputs: options.mounts.map((spec, index) => ({
        name: spec.path,
        codecArgs: encoderArgs(spec),
        format: spec.frameFormat,
        onFrames: (data: Buffer, endFrame: number) => mounts[index]?.deliver(data, endFrame),
      })),
    });
    const encoder = this.#encoder;
    for (const [index, spec] of options.mounts.entries()) {
      mounts.push(
        new MountOutput({
          spec,
          station: options.station,
          encoder: {
            get running() {
              return encoder.running;
            },
            get restarts() {
              return encoder.restarts;
            },
            get latencySeconds() {
              return encoder.latencySeconds(index);
            },
          },
          streamUrl: options.streamUrl,
          sourcePassword: options.sourcePassword,
          admin: options.admin,
          logger: options.logger,
          backoffMs: options.backoffMs,
        }),
      );
    }
    this.mounts = mounts;
  }

  start(): void {
    this.#encoder.start();
    for (const mount of this.mounts) mount.start();
  }

  /** Feeds one block of PCM that the clock plays at global frame `startFrame`. */
  write(pcm: Buffer, startFrame: number): void {
    this.#encoder.write(pcm, startFrame);
  }

  async stop(): Promise<void> {
    await Promise.all([this.#encoder.stop(), ...this.mounts.map((mount) => mount.stop())]);
  }

  status(): MountStatus[] {
    return this.mounts.map((mount) => mount.status());
  }
}
