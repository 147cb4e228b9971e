import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  FrameSplitter,
  locateFfmpeg,
  parseAdtsHeader,
  parseMp3Header,
  runFfmpeg,
  silentLogger,
} from '@radio/core';
import { childPidWithArg, waitFor } from '@radio/core/testing';
import { BYTES_PER_FRAME, FFMPEG_PCM_ARGS, SAMPLE_RATE } from '../pcm.ts';
import { encoderArgs } from './encoder-args.ts';
import { type EncoderOutput, StationEncoder } from './station-encoder.ts';

const ffmpegPath = locateFfmpeg().path;
const BLOCK = SAMPLE_RATE / 10;

const MOUNTS = [
  { codec: 'mp3', bitrate: 128, format: 'mp3' },
  { codec: 'aac', bitrate: 96, format: 'adts' },
  { codec: 'mp3', bitrate: 64, format: 'mp3' },
] as const;

interface Received {
  data: Buffer[];
  endFrames: number[];
}

describe('StationEncoder: one ffmpeg, three outputs', () => {
  let dir: string;
  let pcm: Buffer;
  let encoder: StationEncoder | null = null;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'station-encoder-'));
    const file = join(dir, 'tone.pcm');
    await runFfmpeg(
      [
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=44100:duration=3',
        ...FFMPEG_PCM_ARGS,
        '-y',
        file,
      ],
      { ffmpegPath, logger: silentLogger(), name: 'test tone' },
    );
    pcm = await readFile(file);
  });
  afterEach(async () => {
    await encoder?.stop();
    encoder = null;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const start = (): Received[] => {
    const received = MOUNTS.map(() => ({ data: [] as Buffer[], endFrames: [] as number[] }));
    const outputs: EncoderOutput[] = MOUNTS.map((mount, index) => ({
      name: `${mount.codec}-${mount.bitrate}`,
      codecArgs: encoderArgs(mount),
      format: mount.format,
      onFrames: (data, endFrame) => {
        received[index]?.data.push(Buffer.from(data));
        received[index]?.endFrames.push(endFrame);
      },
    }));
    encoder = new StationEncoder({
      ffmpegPath,
      outputs,
      logger: silentLogger(),
      maxBacklogSeconds: 10,
    });
    encoder.start();
    return received;
  };

  /** Writes the tone in 100 ms blocks at global frames from `at`, skipping blocks `gap`. */
  const feed = (at: number, gap: [number, number] = [-1, -1]): number => {
    const blocks = pcm.length / (BLOCK * BYTES_PER_FRAME);
    let frame = at;
    for (let i = 0; i < blocks; i++, frame += BLOCK) {
      if (i >= gap[0] && i < gap[1]) continue;
      const bytes = BLOCK * BYTES_PER_FRAME;
      encoder?.write(pcm.subarray(i * bytes, (i + 1) * bytes), frame);
    }
    return frame;
  };

  it('encodes each mount in its own format, timed to the global frames across a gap', async () => {
    const received = start();
    // Blocks 10-14 never reach the encoder (as when the pipe was full): 0.5 s of global time
    // that no output may map its audio into.
    const end = feed(0, [10, 15]);
    const gapStart = 10 * BLOCK;
    const gapEnd = 15 * BLOCK;
    await waitFor('every output is past the gap and nearly done', () =>
      received.every((r) => (r.endFrames.at(-1) ?? 0) > end - SAMPLE_RATE / 2),
    );
    for (const [index, mount] of MOUNTS.entries()) {
      const { data, endFrames } = received[index] as Received;
      const joined = Buffer.concat(data);
      const parse = mount.format === 'mp3' ? parseMp3Header : parseAdtsHeader;
      expect(parse(joined, 0)?.samples).toBe(mount.format === 'mp3' ? 1152 : 1024);
      const check = new FrameSplitter(mount.format);
      check.push(joined, () => {});
      expect(check.junkBytes).toBe(0);
      expect(endFrames).toEqual([...endFrames].sort((a, b) => a - b));
      expect(endFrames.some((f) => f > gapStart && f < gapEnd)).toBe(false);
      expect(endFrames.every((f) => f <= end)).toBe(true);
      expect(encoder?.latencySeconds(index)).toBeLessThan(0.5);
    }
  });

  it('restarts quickly after its process is killed, and encodes again', async () => {
    const received = start();
    await waitFor('the encoder is running', () => encoder?.running === true);
    const pid = await waitFor('the encoder process', () => childPidWithArg('pipe:3'));
    process.kill(pid, 'SIGKILL');
    await waitFor('restarted', () => encoder?.restarts === 1 && encoder.running);
    const end = feed(10 * SAMPLE_RATE);
    await waitFor('every output encodes again', () =>
      received.every((r) => (r.endFrames.at(-1) ?? 0) > end - SAMPLE_RATE / 2),
    );
  });
});
