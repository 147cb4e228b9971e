/**
 * The timeline: proxied to the scheduler over the bus and kept per revision, Coming up from
 * the plan kept on the bus, the plan relayed on the event stream (requesters' names only to
 * staff), and the listener-facing history without jingles.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  answerSchedule,
  type ScheduleAnswers,
  sessionCookie,
  timelineOf,
  trackEntry,
} from './helpers/programming.ts';
import { openEvents, type SseClient } from './helpers/sse.ts';
import {
  type Agent,
  BASE,
  expectError,
  loginAll,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

type Timeline = { revision: number; entries: { reason: string; track: { id: number } | null }[] };

describe.each(ROUTE_SETUPS)('the timeline ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let dj: Agent;
  let listener: Agent;
  let answers: ScheduleAnswers;
  // An hour ahead: Coming up lists only what is still to come.
  const start = Date.now() + 3_600_000;

  beforeAll(async () => {
    t = await startTestApi(setup, { commandTimeoutMs: 500 });
    ({ dj, listener } = await loginAll(t));
    answers = answerSchedule(t.bus);
  });
  afterAll(async () => {
    answers?.stop();
    await t?.close();
  });

  const publish = async (revision: number, entries = [trackEntry(1, start)]) => {
    const plan = timelineOf(entries, revision);
    // Published as the scheduler does: the event and the state key; waits until it is seen.
    const seen = new Promise<void>((resolve) => {
      const stop = t.bus.onEvent(
        (event) => {
          if (event.payload.revision !== revision) return;
          stop();
          resolve();
        },
        ['schedule.timeline'],
      );
    });
    await t.bus.publishState('schedule.timeline', plan);
    await seen;
    return plan;
  };

  it('asks the scheduler once per plan, however many clients ask at once', async () => {
    answers.timeline = timelineOf([trackEntry(1, start), trackEntry(2, start + 180_000)], 100);
    answers.timelineRequests.length = 0;
    const all = await Promise.all(
      Array.from({ length: 32 }, () => dj.get(`${BASE}/schedule/timeline`).query({ hours: 24 })),
    );
    for (const res of all) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...answers.timeline, timeZone: 'UTC' });
    }
    expect((await dj.get(`${BASE}/schedule/timeline?hours=24`)).body.revision).toBe(100);
    expect(answers.timelineRequests).toEqual([24]);

    // Another length is another plan; the default is 3 hours.
    await dj.get(`${BASE}/schedule/timeline`);
    expect(answers.timelineRequests).toEqual([24, 3]);

    // A new plan published by the scheduler clears what was kept.
    answers.timeline = timelineOf([trackEntry(3, start)], 101);
    await publish(101, [trackEntry(3, start)]);
    const fresh = await dj.get(`${BASE}/schedule/timeline?hours=24`);
    expect(fresh.body.revision).toBe(101);
    expect(answers.timelineRequests).toEqual([24, 3, 24]);
    // The event of the plan it has already does not.
    await publish(101, [trackEntry(3, start)]);
    await dj.get(`${BASE}/schedule/timeline?hours=24`);
    expect(answers.timelineRequests).toEqual([24, 3, 24]);
  });

  it('checks the length and the role, and answers 503 without a scheduler', async () => {
    expectError(await dj.get(`${BASE}/schedule/timeline?hours=0`), 400, 'API_VALIDATION');
    expectError(await dj.get(`${BASE}/schedule/timeline?hours=169`), 400, 'API_VALIDATION');
    expectError(await listener.get(`${BASE}/schedule/timeline`), 403, 'API_FORBIDDEN');
    answers.stop();
    try {
      expectError(
        await dj.get(`${BASE}/schedule/timeline?hours=7`),
        503,
        'API_SCHEDULER_UNAVAILABLE',
      );
    } finally {
      answers = answerSchedule(t.bus, timelineOf([], 102));
    }
    // The failure was not kept.
    expect((await dj.get(`${BASE}/schedule/timeline?hours=7`)).status).toBe(200);
  });

  it('lists the next three tracks for anyone, leaving out jingles and live slots', async () => {
    const minute = 60_000;
    await publish(200, [
      trackEntry(9, Date.now() - minute),
      trackEntry(10, start, { source: 'queue' }),
      trackEntry(11, start + minute, { source: 'jingle', jingle: true }),
      {
        ...trackEntry(0, start + 2 * minute),
        source: 'live',
        track: null,
        dj: { id: 2, name: 'dj' },
      },
      trackEntry(12, start + 3 * minute, { source: 'request', songRequestId: 5 }),
      trackEntry(13, start + 4 * minute),
      trackEntry(14, start + 5 * minute),
    ]);
    const res = await request(t.app).get(`${BASE}/schedule/next`);
    expect(res.status).toBe(200);
    expect(res.body.entries).toEqual([
      { at: start, track: trackEntry(10, 0).track, source: 'queue' },
      { at: start + 3 * minute, track: trackEntry(12, 0).track, source: 'request' },
      { at: start + 4 * minute, track: trackEntry(13, 0).track, source: 'rotation' },
    ]);
  });

  it('relays the plan on the event stream, naming requesters to staff only', async () => {
    const streams: SseClient[] = [];
    try {
      const open = async (headers: Record<string, string> = {}) => {
        const client = await openEvents(`${t.api.url}${BASE}/events`, headers);
        streams.push(client);
        await client.next('ready');
        return client;
      };
      const anonymous = await open();
      const staff = await open({ cookie: await sessionCookie(t.app, 'dj') });
      const entries = Array.from({ length: 14 }, (_, k) =>
        trackEntry(20 + k, start + k * 180_000, {
          source: k === 0 ? 'request' : 'rotation',
          songRequestId: k === 0 ? 7 : null,
          reason: k === 0 ? 'request by ana' : 'rotation',
        }),
      );
      await publish(300, entries);
      const seen = (data: Timeline) => data.revision === 300;
      const publicPlan = (await anonymous.next('timeline', seen)).data as Timeline;
      const staffPlan = (await staff.next('timeline', seen)).data as Timeline;
      expect(publicPlan.entries).toHaveLength(10);
      expect(publicPlan.entries[0]?.reason).toBe('listener request');
      expect(staffPlan.entries[0]?.reason).toBe('request by ana');
      expect(JSON.stringify(publicPlan)).not.toContain('ana');

      // A stream opened later gets the latest plan before `ready`.
      const late = await openEvents(`${t.api.url}${BASE}/events`);
      streams.push(late);
      await late.next('ready');
      const names = late.events.map((e) => e.event);
      expect(names.indexOf('timeline')).toBeLessThan(names.indexOf('ready'));
      const first = late.events.find((e) => e.event === 'timeline');
      expect(first?.data).toMatchObject({ revision: 300 });
    } finally {
      for (const client of streams) client.close();
    }
  });

  it('leaves jingles out of the history listeners see', async () => {
    const at = (minutes: number) => new Date(start - minutes * 60_000).toISOString();
    await t.db.db
      .insertInto('play_history')
      .values([
        {
          track_id: null,
          title: 'Song A',
          artist: 'A',
          source: 'rotation',
          request_id: null,
          jingle: 0,
          started_at: at(9),
        },
        {
          track_id: null,
          title: 'Station ID',
          artist: null,
          source: 'playlist',
          request_id: null,
          jingle: 1,
          started_at: at(6),
        },
        {
          track_id: null,
          title: 'Song B',
          artist: 'B',
          source: 'rotation',
          request_id: null,
          jingle: 0,
          started_at: at(3),
        },
      ])
      .execute();
    const res = await listener.get(`${BASE}/player/history`);
    expect(res.status).toBe(200);
    expect((res.body.items as { title: string }[]).map((item) => item.title)).toEqual([
      'Song B',
      'Song A',
    ]);
    expect(res.body.total).toBe(2);
  });
});
