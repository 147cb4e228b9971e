/**
 * Programming against the real scheduler (services/scheduler) over a real Redis bus, as two
 * containers would run: the timeline route answered by its planner, a schedule change and a
 * listener request re-planned through `schedule.reload`, and the plan and the request's state
 * reaching the event streams (the requester named to staff only).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import { sessionCookie } from './helpers/programming.ts';
import { type RealScheduler, startRealScheduler } from './helpers/real-scheduler.ts';
import { openEvents, type SseClient } from './helpers/sse.ts';
import {
  type Agent,
  BASE,
  createUser,
  login,
  loginAll,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

jest.setTimeout(90_000);

type Entry = {
  source: string;
  reason: string;
  songRequestId: number | null;
  playlist: { id: number } | null;
  track: { id: number; title: string } | null;
};
type Plan = { revision: number; entries: Entry[] };

describe('programming with the real scheduler over Redis (postgres, sessions in redis)', () => {
  let t: TestApi;
  let real: RealScheduler;
  let admin: Agent;
  let dj: Agent;
  let fan: Agent;
  let fanId: number;
  const streams: SseClient[] = [];
  let staffEvents: SseClient;
  let fanEvents: SseClient;
  let publicEvents: SseClient;

  const open = async (cookie?: string) => {
    const client = await openEvents(`${t.api.url}${BASE}/events`, cookie ? { cookie } : {});
    streams.push(client);
    await client.next('ready');
    return client;
  };

  beforeAll(async () => {
    t = await startTestApi(
      { dialect: 'postgres', sessions: 'redis' },
      { artistSeparationMinutes: 0, trackSeparationMinutes: 0 },
      { scheduler: false, bus: 'redis' },
    );
    real = await startRealScheduler(t, {
      timeZone: 'UTC',
      artistSeparationMinutes: 0,
      trackSeparationMinutes: 0,
    });
    ({ admin, dj } = await loginAll(t));
    fanId = (await createUser(t.db, 'fan')).id;
    fan = await login(t.app, 'fan');
    // A library of five songs: any of them may have played a moment ago.
    await admin.put(`${BASE}/settings/requests`).send({ thresholdMinutes: 0 });
    staffEvents = await open(await sessionCookie(t.app, 'dj'));
    fanEvents = await open(await sessionCookie(t.app, 'fan'));
    publicEvents = await open();
  });

  afterAll(async () => {
    for (const client of streams) client.close();
    await real?.close();
    await t?.close();
  });

  const trackByTitle = async (title: string): Promise<{ id: number }> => {
    const res = await fan.get(`${BASE}/tracks`).query({ q: title });
    const found = (res.body.items as { id: number; title: string }[]).find(
      (x) => x.title === title,
    );
    if (!found) throw new Error(`no track ${title}`);
    return found;
  };
  const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

  it('answers the timeline with the scheduler’s plan', async () => {
    const plan = await waitFor('a plan with tracks', async () => {
      const res = await dj.get(`${BASE}/schedule/timeline`).query({ hours: 1 });
      expect(res.status).toBe(200);
      const body = res.body as Plan;
      return body.entries.some((entry) => entry.track !== null) ? body : undefined;
    });
    expect(plan.revision).toBeGreaterThan(0);
    expect(plan.entries[0]).toMatchObject({
      source: expect.any(String),
      reason: expect.any(String),
    });
    const next = await fan.get(`${BASE}/schedule/next`);
    expect(next.status).toBe(200);
    expect(Array.isArray(next.body.entries)).toBe(true);
  });

  it('re-plans when an on-air playlist is scheduled now', async () => {
    const tide = await trackByTitle('Tide');
    const created = await admin.post(`${BASE}/playlists`).send({ name: 'Tides', onAir: true });
    await admin.post(`${BASE}/playlists/${created.body.id}/tracks`).send({ trackId: tide.id });
    const now = Date.now();
    const entry = await admin.post(`${BASE}/schedules`).send({
      playlistId: created.body.id,
      days: [1, 2, 3, 4, 5, 6, 7],
      startTime: hhmm(now - 60_000),
      endTime: hhmm(now + 3_600_000),
    });
    expect(entry.status).toBe(201);
    const planned = await staffEvents.next(
      'timeline',
      (plan: Plan) =>
        plan.entries.some((e) => e.source === 'scheduled' && e.playlist?.id === created.body.id),
      30_000,
    );
    expect((planned.data as Plan).entries.some((e) => e.track?.id === tide.id)).toBe(true);
    expect((await admin.delete(`${BASE}/schedules/${entry.body.id}`)).status).toBe(204);
  });

  it('plans a listener request: the requester hears of it, staff see who asked', async () => {
    const undertow = await trackByTitle('Undertow');
    const res = await fan.post(`${BASE}/requests`).send({ trackId: undertow.id });
    expect(res.status).toBe(201);
    const id = res.body.id as number;
    const hasRequest = (plan: Plan) => plan.entries.some((e) => e.songRequestId === id);
    const staffPlan = (await staffEvents.next('timeline', hasRequest, 30_000)).data as Plan;
    const publicPlan = (await publicEvents.next('timeline', hasRequest, 30_000)).data as Plan;
    const requested = (plan: Plan) => plan.entries.find((e) => e.songRequestId === id);
    expect(requested(staffPlan)).toMatchObject({ source: 'request', track: { id: undertow.id } });
    expect(requested(staffPlan)?.reason).toContain('fan');
    expect(requested(publicPlan)?.reason).toBe('listener request');

    // Planned, then played: the scheduler's updates reach the requester.
    type Updates = { requests: { id: number; userId: number; status: string }[] };
    const played = await fanEvents.next(
      'request',
      (data: Updates) => data.requests.some((r) => r.id === id && r.status === 'played'),
      60_000,
    );
    expect((played.data as Updates).requests.every((r) => r.userId === fanId)).toBe(true);
    const mine = await fan.get(`${BASE}/requests/mine`);
    expect(mine.body.requests[0]).toMatchObject({
      id,
      status: 'played',
      playedAt: expect.any(String),
    });
    expect(publicEvents.events.some((e) => e.event === 'request')).toBe(false);
  });
});
