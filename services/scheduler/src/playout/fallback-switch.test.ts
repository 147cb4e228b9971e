import { describe, expect, it } from '@jest/globals';
import { type PlayoutFallback, silentLogger } from '@radio/core';
import { CHANNELS } from '../pcm.ts';
import { FallbackSwitch } from './fallback-switch.ts';

const BLOCK = 2205;
const flush = () => new Promise((resolve) => setImmediate(resolve));

function setup() {
  const state = { idle: true, hasFiles: false, frame: 0, started: 0, rested: 0 };
  const changes: { fallback: PlayoutFallback | null; title: string | null; frame: number }[] = [];
  const fallback = new FallbackSwitch({
    audio: {
      start: () => {
        state.started += 1;
      },
      fill: (out, frames) => out.fill(0.25, 0, frames * CHANNELS),
      rest: () => {
        state.rested += 1;
      },
    },
    idle: () => state.idle,
    hasFiles: async () => state.hasFiles,
    stationName: 'Test FM',
    logger: silentLogger(),
    onChange: (fb, title, frame) => changes.push({ fallback: fb, title, frame }),
  });
  /** One block of what the player made (0.5 = music, 0 = its silence); returns what goes out. */
  const block = (): Float32Array => {
    const samples = new Float32Array(BLOCK * CHANNELS).fill(state.idle ? 0 : 0.5);
    fallback.process(samples, BLOCK, state.frame);
    state.frame += BLOCK;
    return samples;
  };
  return { fallback, state, changes, block };
}

describe('FallbackSwitch', () => {
  it('goes on air after a moment of nothing to play, and says why', async () => {
    const { fallback, state, changes, block } = setup();
    expect(block()[0]).toBe(0); // a track may still be loading
    expect(fallback.active).toBe(false);
    for (let i = 0; i < 5; i++) block();
    expect(fallback.active).toBe(true);
    expect(state.started).toBe(1);
    expect(block()[0]).toBe(0.25);
    await flush();
    expect(changes).toEqual([
      {
        fallback: { reason: 'empty-library', message: expect.stringContaining('empty') },
        title: 'Test FM: no music to play — add files to the music folder',
        frame: BLOCK * 6,
      },
    ]);
    expect(fallback.fallback?.reason).toBe('empty-library');
  });

  it('steps aside at once when a track can play', async () => {
    const { fallback, state, changes, block } = setup();
    for (let i = 0; i < 8; i++) block();
    await flush();
    state.idle = false;
    expect(block()[0]).toBe(0.5);
    expect(fallback.active).toBe(false);
    expect(fallback.fallback).toBeNull();
    expect(state.rested).toBe(1);
    expect(changes.at(-1)).toEqual({ fallback: null, title: null, frame: BLOCK * 8 });
  });

  it('tells files that all fail from an empty folder, and follows the library', async () => {
    const { fallback, state, changes, block } = setup();
    state.hasFiles = true;
    for (let i = 0; i < 8; i++) block();
    await flush();
    expect(fallback.fallback?.reason).toBe('no-playable-tracks');
    expect(changes.at(-1)?.title).toBe(
      'Test FM: no playable music — check the files in the music folder',
    );
    state.hasFiles = false;
    fallback.libraryChanged();
    await flush();
    expect(fallback.fallback?.reason).toBe('empty-library');
    fallback.libraryChanged();
    await flush();
    expect(changes).toHaveLength(2); // the same reason is not told twice
  });
});
