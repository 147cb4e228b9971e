import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { locateFfmpeg, runFfmpeg, silentLogger } from '@radio/core';
import { generateTrack, writeCorruptFile } from '@radio/core/test-audio';
import type { TrackAnalysis } from '@radio/db';
import type { LibraryTrack } from '../library/library-track.ts';
import { NOT_ANALYSED } from '../library/library-track.ts';
import { Amplifier } from '../operators/amplify.ts';
import type { QueueEntry } from '../sources/queue-entry.ts';
import { Player, type TrackEndReason } from './player.ts';

const ffmpegPath = locateFfmpeg().path;
const BLOCK = 2205; // 50 ms

function track(
  id: number,
  path: string,
  duration: number,
  analysis: Partial<TrackAnalysis> | null = null,
): LibraryTrack {
  return {
    id,
    path,
    title: `T${id}`,
    artist: null,
    album: null,
    genre: null,
    year: null,
    trackNo: null,
    duration,
    format: 'flac',
    hasCover: false,
    analysis: analysis ? { ...NOT_ANALYSED, status: 'done', ...analysis } : NOT_ANALYSED,
  };
}

/** A fixed list of entries, as the upcoming list would hand them out. */
class ListSupply {
  entries: QueueEntry[];
  constructor(tracks: LibraryTrack[]) {
    this.entries = tracks.map((t, i) => ({
      requestId: String(i + 1),
      track: t,
      kind: 'rotation',
      queuedAt: 0,
    }));
  }
  head(): QueueEntry | null {
    return this.entries[0] ?? null;
  }
  take(requestId: string): QueueEntry | null {
    const at = this.entries.findIndex((e) => e.requestId === requestId);
    return at < 0 ? null : (this.entries.splice(at, 1)[0] as QueueEntry);
  }
}

interface Run {
  player: Player;
  starts: { id: string; frame: number }[];
  ends: { id: string; reason: TrackEndReason }[];
  failed: string[];
  /** Peak absolute sample of each block produced, in order. */
  peaks: number[];
  frames: number;
  play(blocks: number, paceMs?: number): Promise<void>;
  /** Plays until the first track is on air (bounded), so a slow machine does not skew counts. */
  playUntilStarted(): Promise<void>;
}

describe('Player with real decoders', () => {
  let dir: string;
  const players: Player[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'player-'));
    const options = { ffmpegPath };
    await generateTrack(
      join(dir, 'a.flac'),
      { format: 'flac', durationSeconds: 1, frequency: 300 },
      options,
    );
    await generateTrack(
      join(dir, 'b.flac'),
      { format: 'flac', durationSeconds: 1, frequency: 500 },
      options,
    );
    await generateTrack(
      join(dir, 'c.flac'),
      { format: 'flac', durationSeconds: 1.5, frequency: 700 },
      options,
    );
    await writeCorruptFile(join(dir, 'bad.mp3'));
    // 0.5 s of silence, 1 s of tone, 0.5 s of silence.
    await runFfmpeg(
      [
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'aevalsrc=if(between(t\\,0.5\\,1.5)\\,0.25*sin(2*PI*400*t)\\,0):s=44100:d=2:c=stereo',
        join(dir, 'padded.flac'),
      ],
      { ffmpegPath, logger: silentLogger(), name: 'test track' },
    );
  });

  afterEach(async () => {
    await Promise.all(players.splice(0).map((player) => player.close()));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function start(
    tracks: LibraryTrack[],
    crossfadeSeconds: number,
    amplify = 1,
    loudnessTarget: number | null = null,
  ): Run {
    const run: Run = {
      starts: [],
      ends: [],
      failed: [],
      peaks: [],
      frames: 0,
      player: undefined as unknown as Player,
      async playUntilStarted() {
        for (let i = 0; i < 200 && run.starts.length === 0; i++) await run.play(1);
        expect(run.starts.length).toBeGreaterThan(0);
      },
      async play(blocks, paceMs = 50) {
        const samples = new Float32Array(BLOCK * 2);
        for (let i = 0; i < blocks; i++) {
          // Real time, so the next track's decoder has the time it has in the station.
          await new Promise((resolve) => setTimeout(resolve, paceMs));
          run.player.produce(samples, BLOCK, run.frames);
          run.frames += BLOCK;
          let peak = 0;
          for (const s of samples) peak = Math.max(peak, Math.abs(s));
          run.peaks.push(peak);
        }
      },
    };
    run.player = new Player({
      ffmpegPath,
      musicDir: dir,
      logger: silentLogger(),
      crossfadeSeconds,
      loudnessTarget,
      supply: new ListSupply(tracks),
      amplifier: new Amplifier(amplify),
      events: {
        onTrackStart: (entry, frame) => run.starts.push({ id: entry.track.path, frame }),
        onTrackEnd: (entry, reason) => run.ends.push({ id: entry.track.path, reason }),
        onTrackFailed: (entry) => run.failed.push(entry.track.path),
        onStateChange: () => {},
      },
    });
    players.push(run.player);
    return run;
  }

  it('joins tracks without a gap when the crossfade is 0', async () => {
    const run = start([track(1, 'a.flac', 1), track(2, 'b.flac', 1)], 0);
    await run.playUntilStarted();
    await run.play(50);
    expect(run.starts.map((s) => s.id)).toEqual(['a.flac', 'b.flac']);
    const [a, b] = run.starts as unknown as [{ frame: number }, { frame: number }];
    expect(b.frame - a.frame).toBe(44_100); // FLAC is sample exact: the join is too
    const firstBlock = Math.floor(a.frame / BLOCK) + 1;
    const lastBlock = Math.floor((b.frame + 44_100) / BLOCK) - 1;
    const inside = run.peaks.slice(firstBlock, lastBlock);
    expect(inside.length).toBeGreaterThan(30);
    expect(Math.min(...inside)).toBeGreaterThan(0.03); // never a silent block in between
    expect(run.ends).toEqual([
      { id: 'a.flac', reason: 'finished' },
      { id: 'b.flac', reason: 'finished' },
    ]);
    expect(run.player.onAir()).toBeNull();
    expect(run.peaks.at(-1)).toBe(0); // then silence: nothing left to play
  });

  it('overlaps tracks by the crossfade', async () => {
    const run = start([track(3, 'c.flac', 1.5), track(1, 'a.flac', 1)], 0.5);
    await run.playUntilStarted();
    await run.play(55);
    const [c, a] = run.starts as unknown as [{ frame: number }, { frame: number }];
    expect(a.frame - c.frame).toBe(44_100); // 1.5 s track, 0.5 s crossfade
    const from = Math.floor(c.frame / BLOCK) + 1;
    const to = Math.floor((a.frame + 44_100) / BLOCK) - 1;
    expect(Math.min(...run.peaks.slice(from, to))).toBeGreaterThan(0.03);
  });

  it('skips at once to the next track', async () => {
    const run = start([track(3, 'c.flac', 1.5), track(2, 'b.flac', 1)], 0.2);
    await run.playUntilStarted();
    await run.play(2);
    expect(run.player.onAir()?.entry.track.path).toBe('c.flac');
    expect(run.player.skip()).toBe(true);
    for (let i = 0; i < 100 && run.player.onAir()?.entry.track.path !== 'b.flac'; i++) {
      await run.play(1);
    }
    expect(run.player.onAir()?.entry.track.path).toBe('b.flac');
    expect(run.ends[0]).toEqual({ id: 'c.flac', reason: 'skipped' });
  });

  it('plays silence while paused and goes on from the same place', async () => {
    const run = start([track(3, 'c.flac', 1.5)], 0);
    await run.playUntilStarted();
    await run.play(4);
    run.player.pause();
    const held = run.player.onAir()?.position as number;
    expect(held).toBeGreaterThan(0);
    await run.play(5);
    // The first block after the pause carries the limiter's last few milliseconds out.
    expect(run.peaks.slice(-4)).toEqual([0, 0, 0, 0]);
    expect(run.player.onAir()?.position).toBe(held);
    run.player.resume();
    await run.play(2);
    expect(run.player.onAir()?.position).toBeGreaterThan(held);
    expect(run.peaks.at(-1)).toBeGreaterThan(0.03);
    run.player.stop();
    await run.play(2);
    expect(run.player.onAir()).toBeNull();
    expect(run.peaks.at(-1)).toBe(0);
    expect(run.ends.at(-1)).toEqual({ id: 'c.flac', reason: 'stopped' });
  });

  it('reports a file that cannot be decoded and plays the next one', async () => {
    const run = start([track(9, 'bad.mp3', 3), track(1, 'a.flac', 1)], 0);
    await run.playUntilStarted();
    expect(run.failed).toEqual(['bad.mp3']);
    expect(run.starts.map((s) => s.id)).toEqual(['a.flac']);
  });

  it('applies amplify to what it plays', async () => {
    const loud = start([track(1, 'a.flac', 1)], 0, 1);
    await loud.playUntilStarted();
    await loud.play(8);
    const quiet = start([track(1, 'a.flac', 1)], 0, 0.5);
    await quiet.playUntilStarted();
    await quiet.play(8);
    const peak = (run: Run) => Math.max(...run.peaks);
    expect(peak(quiet) / peak(loud)).toBeCloseTo(0.5, 1);
  });

  it('plays an analysed track from its cue-in to its cue-out, joined without a gap', async () => {
    const padded = track(5, 'padded.flac', 2, { cueIn: 0.5, cueOut: 1.5 });
    const run = start([padded, track(1, 'a.flac', 1)], 0);
    await run.playUntilStarted();
    await run.play(45);
    expect(run.starts.map((s) => s.id)).toEqual(['padded.flac', 'a.flac']);
    const [p, a] = run.starts as unknown as [{ frame: number }, { frame: number }];
    expect(a.frame - p.frame).toBe(44_100); // the 1 s between the cues, FLAC-exact
    // The tone starts at once and runs into the next track: no silent block anywhere.
    const from = Math.floor(p.frame / BLOCK) + 1;
    const to = Math.floor((a.frame + 44_100) / BLOCK) - 1;
    expect(Math.min(...run.peaks.slice(from, to))).toBeGreaterThan(0.03);
    expect(run.peaks[Math.floor(p.frame / BLOCK)]).toBeGreaterThan(0.03);
  });

  it('starts the next track at the fade point and overlaps until the cue-out', async () => {
    const ending = track(3, 'c.flac', 1.5, { cueIn: 0, cueOut: 1.5, fadePoint: 1.1 });
    const run = start([ending, track(1, 'a.flac', 1)], 0.2);
    await run.playUntilStarted();
    await run.play(50);
    const [c, a] = run.starts as unknown as [{ frame: number }, { frame: number }];
    expect(a.frame - c.frame).toBe(Math.round(1.1 * 44_100)); // 0.4 s overlap, not 0.2 s
    const from = Math.floor(c.frame / BLOCK) + 1;
    const to = Math.floor((a.frame + 44_100) / BLOCK) - 1;
    expect(Math.min(...run.peaks.slice(from, to))).toBeGreaterThan(0.03);
  });

  it('levels a track to the loudness target by its measured loudness', async () => {
    const measured = { loudness: -20, truePeak: -12 };
    const plain = start([track(1, 'a.flac', 1, measured)], 0, 1, null);
    await plain.playUntilStarted();
    await plain.play(8);
    const levelled = start([track(1, 'a.flac', 1, measured)], 0, 1, -26);
    await levelled.playUntilStarted();
    await levelled.play(8);
    const peak = (run: Run) => Math.max(...run.peaks);
    expect(peak(levelled) / peak(plain)).toBeCloseTo(0.5, 2); // -6 dB
  });
});
