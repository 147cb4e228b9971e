import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { LiveState, Timeline, TimelineEntry } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import {
  A_HZ,
  createDj,
  exited,
  ffmpegSource,
  startLiveStation,
  type TestDj,
} from './helpers/live.ts';
import type { TestStation } from './helpers/station.ts';

jest.setTimeout(180_000);

const MINUTE = 60_000;
const hhmm = (at: number): string => new Date(at).toISOString().slice(11, 16);

/**
 * A DJ's show slot on the real station (STATION_TIMEZONE UTC): in force but with nobody on the
 * live input, the AutoDJ plays on and the plan says so; once the DJ is on air the plan holds
 * automation until the slot's end; when the DJ leaves early, the AutoDJ is planned from then.
 */
describe('a live show slot with a real DJ', () => {
  let dir: string;
  let station: TestStation;
  let anna: TestDj;
  /** The slot: from the minute before the test's start to four minutes after it. */
  let slot = { start: 0, end: 0 };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'programme-live-slot-'));
    station = await startLiveStation(dir);
    anna = await createDj(station.db, 'anna', { name: 'Anna' });
    await waitFor('the AutoDJ on air', () => station.scheduler.status().player.nowPlaying);
    const minute = Math.floor(Date.now() / MINUTE) * MINUTE;
    slot = { start: minute - MINUTE, end: minute + 4 * MINUTE };
    await station.db.db
      .insertInto('schedules')
      .values({
        dj_user_id: anna.id,
        title: 'Anna live',
        days: 127,
        start_time: hhmm(slot.start),
        end_time: hhmm(slot.end),
        priority: 1,
      })
      .execute();
    await station.bus.request('schedule.reload', {});
  });

  afterAll(async () => {
    await station?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const timeline = (): Promise<Timeline> =>
    station.bus.request('schedule.timeline', { hours: 1 }) as Promise<Timeline>;
  const firstTrack = (plan: Timeline): TimelineEntry | undefined =>
    plan.entries.find((entry) => entry.source !== 'live');
  const liveState = (): Promise<LiveState | null> => station.bus.getState('live-state');

  it('lists the slot and keeps the AutoDJ planned while the DJ is not on air', async () => {
    const plan = await timeline();
    const live = plan.entries.find((entry) => entry.source === 'live');
    expect(live).toMatchObject({
      at: slot.start,
      end: slot.end,
      dj: { id: anna.id, name: 'Anna' },
      track: null,
      reason: 'live: Anna live',
    });
    // A DJ who does not come leaves the AutoDJ playing: its next track is due within the
    // 60 s tone now on air, long before the slot ends.
    expect((firstTrack(plan)?.at ?? Number.POSITIVE_INFINITY) - Date.now()).toBeLessThan(MINUTE);
  });

  it('holds automation until the slot ends while the DJ is on air, and resumes when they leave', async () => {
    const source = ffmpegSource(station.scheduler.livePort, anna, A_HZ, 20);
    try {
      await waitFor('Anna on air', async () => (await liveState())?.onAir?.dj.id === anna.id);
      const held = await waitFor('automation planned from the slot end', async () => {
        const plan = await timeline();
        return (firstTrack(plan)?.at ?? 0) >= slot.end && plan;
      });
      expect(held.entries[0]).toMatchObject({ source: 'live', dj: { id: anna.id } });
    } finally {
      source.kill('SIGINT');
      await exited(source);
    }
    await waitFor('Anna off air', async () => (await liveState())?.onAir === null, 30_000);
    const back = await waitFor('a plan made without Anna', async () => {
      const plan = await timeline();
      const next = firstTrack(plan);
      return next !== undefined && next.at < slot.end && plan;
    });
    expect(back.entries.find((entry) => entry.source === 'live')?.dj?.id).toBe(anna.id);
  });
});
