import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { generateTrack } from '@radio/core/test-audio';
import { waitFor } from '@radio/core/testing';
import { decode, decodeErrors, ffprobe, listen, rmsWindows, silences } from './helpers/listen.ts';
import { ffmpegPath, TestStation } from './helpers/station.ts';

jest.setTimeout(90_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The level (dB) of several windows together: their energies averaged, not their dB. */
const energyMean = (levels: number[]): number =>
  10 * Math.log10(levels.reduce((sum, db) => sum + 10 ** (db / 10), 0) / levels.length);

describe('playout through the real stream server (crossfade 0)', () => {
  let station: TestStation;
  let startedAt: number;

  beforeAll(async () => {
    station = await TestStation.start({ crossfadeSeconds: 0, trackSeconds: 3 });
    startedAt = Date.now();
    // A longer track to request, so it is still on air while a listener checks its title.
    await generateTrack(
      join(station.music, 'requests', 'Requested Song.flac'),
      {
        format: 'flac',
        durationSeconds: 12,
        frequency: 600,
        tags: { title: 'Requested Song', artist: 'Test Artist', album: 'Tests' },
      },
      { ffmpegPath },
    );
  });

  afterAll(async () => {
    await station?.stop();
  });

  it('joins tracks without a silence gap when the crossfade is 0', async () => {
    // Let the burst a new listener gets hold only music, not the silence before the first track.
    await sleep(Math.max(0, 6000 - (Date.now() - startedAt)));
    const capture = await listen(`${station.streamUrl}/radio.mp3`, 7000);
    expect(capture.status).toBe(200);
    // 4 s of burst plus 7 s live: at least three track boundaries of 3 s tracks.
    expect(capture.audio.length).toBeGreaterThan((128_000 / 8) * 8);
    const found = await silences(capture.audio, station.dir, 'gapless', -50, 0.02);
    // A decoder that joins an MP3 stream mid-way outputs its first frame or two as silence
    // (the bit reservoir points into frames it never saw): that is the capture, not a gap.
    const gaps = found.filter((silence) => silence.start > 0.1);
    if (gaps.length > 0) {
      process.stderr.write(
        `gaps ${JSON.stringify(gaps)} in ${capture.audio.length} bytes\n${station.warnings.join('\n')}\n${JSON.stringify(station.scheduler.status().mounts)}\n`,
      );
    }
    expect(gaps).toEqual([]);
  });

  it('serves each mount at its nominal codec and bitrate, decoding cleanly', async () => {
    const mounts = [
      { mount: '/radio.mp3', codec: 'mp3', bitrate: 128_000 },
      { mount: '/radio.aac', codec: 'aac', bitrate: 96_000 },
      { mount: '/radio-low.mp3', codec: 'mp3', bitrate: 64_000 },
    ];
    const captures = await Promise.all(
      mounts.map((m) => listen(`${station.streamUrl}${m.mount}`, 3000)),
    );
    for (const [i, m] of mounts.entries()) {
      const capture = captures[i] as (typeof captures)[number];
      expect(capture.status).toBe(200);
      const name = `probe-${i}`;
      const stream = await ffprobe(capture.audio, station.dir, name);
      expect(stream.codec_name).toBe(m.codec);
      expect(stream.sample_rate).toBe('44100');
      expect(stream.channels).toBe(2);
      if (m.codec === 'mp3') {
        expect(Number(stream.bit_rate)).toBe(m.bitrate);
      } else {
        expect(stream.profile).toBe('LC');
        // ADTS has no bitrate field: ffprobe estimates it from size and duration.
        expect(Number(stream.bit_rate)).toBeGreaterThan(m.bitrate * 0.85);
        expect(Number(stream.bit_rate)).toBeLessThan(m.bitrate * 1.15);
      }
      expect(await decodeErrors(capture.audio, station.dir, name)).toBe('');
    }
  });

  it('lowers the level at a listener by about 6 dB with var.set amplify 0.5', async () => {
    let received = 0;
    const listening = listen(`${station.streamUrl}/radio.mp3`, 8000, (capture) => {
      received = capture.audio.length;
      return false;
    });
    await sleep(3500);
    const changedAtByte = received;
    expect(await station.command('var.set amplify 0.5')).toBe('Variable amplify set.');
    const capture = await listening;
    expect(await station.command('var.get amplify')).toBe('0.500');
    expect(await station.command('var.set amplify = 1')).toBe('Variable amplify set.');
    const pcm = await decode(capture.audio, station.dir, 'amplify');
    // The test tones pulse at 2 Hz: levels are compared over whole 0.5 s periods.
    const levels = rmsWindows(pcm, 0.5);
    const changedAt = changedAtByte / 16_000; // 128 kbit/s
    const before = levels.slice(1, Math.floor((changedAt - 0.5) / 0.5));
    const after = levels.slice(Math.ceil((changedAt + 1) / 0.5), -1);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(after.length).toBeGreaterThanOrEqual(3);
    const drop = energyMean(after) - energyMean(before);
    if (drop < -7 || drop > -5) {
      process.stderr.write(
        `amplify: change at ${changedAt.toFixed(2)} s, levels ${levels.map((l) => l.toFixed(1)).join(' ')}\n${station.warnings.join('\n')}\n`,
      );
    }
    expect(drop).toBeGreaterThan(-7);
    expect(drop).toBeLessThan(-5);
  });

  it('plays a pushed request next: after request.skip, on_air and the ICY title name it', async () => {
    const rid = await station.command('request.push requests/Requested Song.flac');
    expect(rid).toMatch(/^\d+$/);
    const queue = await station.command('request.queue');
    expect(queue.split('\r\n')[0]).toBe(
      `${rid} Test Artist - Requested Song (requests/Requested Song.flac) [request]`,
    );
    expect(await station.command('request.skip')).toBe('Done.');
    const onAir = await waitFor('the request on air', async () => {
      const line = await station.command('request.on_air');
      return line.startsWith(`${rid} Test Artist - Requested Song `) ? line : undefined;
    });
    expect(onAir).toMatch(new RegExp(`^${rid} Test Artist - Requested Song \\d+:\\d\\d / 0:12$`));
    const capture = await listen(`${station.streamUrl}/radio.mp3`, 8000, (c) =>
      c.titles.some((t) => t.title === 'Test Artist - Requested Song'),
    );
    expect(capture.titles.map((t) => t.title)).toContain('Test Artist - Requested Song');
    const metadata = await station.command('request.metadata');
    expect(metadata.split('\n')).toEqual(
      expect.arrayContaining([
        `rid="${rid}"`,
        'status="playing"',
        'source="request"',
        'title="Requested Song"',
        'artist="Test Artist"',
        'path="requests/Requested Song.flac"',
      ]),
    );
  });

  it('resumes audio on all three mounts within 5 s of a stream server restart', async () => {
    const before = station.scheduler.status().mounts.map((m) => m.connects);
    await station.restartStream(300);
    const restartedAt = Date.now();
    await waitFor(
      'every mount reconnected',
      () =>
        station.scheduler
          .status()
          .mounts.every((m, i) => m.connected && m.connects > (before[i] as number)),
      15_000,
      20,
    );
    process.stderr.write(`reconnect: every mount back ${Date.now() - restartedAt} ms after\n`);
    const captures = await Promise.all(
      ['/radio.mp3', '/radio.aac', '/radio-low.mp3'].map((mount) =>
        listen(`${station.streamUrl}${mount}`, 2000),
      ),
    );
    for (const capture of captures) {
      expect(capture.status).toBe(200);
      expect(capture.audio.length).toBeGreaterThan(8000);
    }
    // The title is set again on the new server.
    const titled = await listen(`${station.streamUrl}/radio.mp3`, 6000, (c) => c.titles.length > 0);
    expect(titled.titles[0]?.title).toBeTruthy();
  });
});
