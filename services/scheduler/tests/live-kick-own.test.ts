import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { LiveState } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import {
  A_HZ,
  B_HZ,
  createDj,
  exited,
  ffmpegSource,
  startLiveStation,
  type TestDj,
} from './helpers/live.ts';
import type { TestStation } from './helpers/station.ts';

jest.setTimeout(120_000);

/*
 * The api sends a DJ's kick with the DJ's id (a DJ may take itself off, never another DJ):
 * the live input then drops that DJ's sources only, whoever else is connected.
 */
describe("a kick that names a DJ drops that DJ's source only", () => {
  let dir: string;
  let station: TestStation;
  let anna: TestDj;
  let ben: TestDj;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'live-kick-'));
    station = await startLiveStation(dir);
    anna = await createDj(station.db, 'anna', { name: 'Anna' });
    ben = await createDj(station.db, 'ben', { name: 'Ben' });
  });

  afterAll(async () => {
    await station?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const liveState = (): Promise<LiveState | null> => station.bus.getState('live-state');

  it('drops the named DJ waiting, leaves the one on air, and drops nobody it does not name', async () => {
    const port = station.scheduler.livePort;
    // Anna first, on air before Ben connects: started together, either could win the air.
    const a = ffmpegSource(port, anna, A_HZ, 60);
    let b: ReturnType<typeof ffmpegSource> | undefined;
    try {
      await waitFor('Anna on air', async () => (await liveState())?.onAir?.dj.id === anna.id);
      b = ffmpegSource(port, ben, B_HZ, 60);
      await waitFor('Anna on air, Ben waiting', async () => {
        const state = await liveState();
        return state?.onAir?.dj.id === anna.id && state.waiting.some((s) => s.dj.id === ben.id);
      });
      const all = await station.bus.request('live.kick', { target: 'all', djId: ben.id });
      expect(all.kicked).toEqual([{ id: ben.id, name: 'Ben' }]);
      await exited(b);
      // Ben's own kick of the air, with Anna on it: nothing of Ben's is there.
      const onAir = await station.bus.request('live.kick', { target: 'on_air', djId: ben.id });
      expect(onAir.kicked).toEqual([]);
      const state = await waitFor('Ben gone', async () => {
        const now = await liveState();
        return now?.waiting.length === 0 && now;
      });
      expect(state.onAir?.dj.id).toBe(anna.id);
    } finally {
      await station.bus.request('live.kick', { target: 'all' });
      await Promise.all([exited(a), ...(b ? [exited(b)] : [])]);
    }
  });
});
