/**
 * Listener requests: every refusal rule with its code and message, an accepted request
 * reaching the scheduler (`schedule.reload`) and its requester alone over the event stream,
 * withdrawing and removing, the lists, and the request settings.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Track } from '@radio/db';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { answerSchedule, type ScheduleAnswers, sessionCookie } from './helpers/programming.ts';
import { openEvents, type SseClient } from './helpers/sse.ts';
import {
  type Agent,
  BASE,
  createUser,
  expectError,
  insertTracks,
  login,
  loginAll,
  startTestApi,
  type TestApi,
  track,
} from './helpers/test-api.ts';

const MINUTE = 60_000;
type Update = { id: number; userId: number; status: string; reason: string | null };

describe.each(ROUTE_SETUPS)('listener requests ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let dj: Agent;
  let listener: Agent;
  let answers: ScheduleAnswers;
  let tracks: Track[];
  let userCount = 0;

  beforeAll(async () => {
    t = await startTestApi(setup, {
      stationTimezone: 'UTC',
      artistSeparationMinutes: 30,
      trackSeparationMinutes: 180,
    });
    ({ admin, dj, listener } = await loginAll(t));
    answers = answerSchedule(t.bus);
    tracks = await insertTracks(
      t.db,
      Array.from({ length: 30 }, (_, k) => track({ title: `Song ${k}`, artist: `Band ${k}` })),
    );
  });
  afterAll(async () => {
    answers?.stop();
    await t?.close();
  });

  /** A fresh listener, logged in, so each case starts from no requests. */
  const newListener = async () => {
    userCount += 1;
    const name = `fan${userCount}`;
    const user = await createUser(t.db, name);
    return { user, agent: await login(t.app, name) };
  };
  const ask = (agent: Agent, trackId: number) => agent.post(`${BASE}/requests`).send({ trackId });
  const settings = (body: object) => admin.put(`${BASE}/settings/requests`).send(body);
  const played = (trackId: number | null, artist: string, minutesAgo: number) =>
    t.db.db
      .insertInto('play_history')
      .values({
        track_id: trackId,
        title: 'played',
        artist,
        source: 'rotation',
        request_id: null,
        started_at: new Date(Date.now() - minutesAgo * MINUTE).toISOString(),
      })
      .execute();
  const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  const song = (k: number) => tracks[k] as Track;

  it('has default settings anyone can read, and only admins change', async () => {
    const res = await listener.get(`${BASE}/settings/requests`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      enabled: true,
      minDelayMinutes: 0,
      maxPendingPerUser: 3,
      maxPerHourPerUser: 5,
      thresholdMinutes: 60,
    });
    expectError(
      await listener.put(`${BASE}/settings/requests`).send({ enabled: false }),
      403,
      'API_FORBIDDEN',
    );
    expectError(await settings({ maxPendingPerUser: 0 }), 400, 'API_VALIDATION');
    expectError(await settings({}), 400, 'API_VALIDATION');
    const before = answers.reloads;
    const changed = await settings({ thresholdMinutes: 45 });
    expect(changed.body).toMatchObject({ thresholdMinutes: 45, maxPendingPerUser: 3 });
    await answers.waitForReloads(before + 1);
    expect((await settings({ thresholdMinutes: 60 })).status).toBe(200);
    const audit = await t.db.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'requests.settings')
      .execute();
    expect(audit).toHaveLength(2);
  });

  it('accepts a request: the scheduler reloads and only the requester and staff hear of it', async () => {
    const ana = await newListener();
    const ben = await newListener();
    const streams: SseClient[] = [];
    const open = async (cookie?: string) => {
      const client = await openEvents(`${t.api.url}${BASE}/events`, cookie ? { cookie } : {});
      streams.push(client);
      await client.next('ready');
      return client;
    };
    try {
      const anaEvents = await open(await sessionCookie(t.app, ana.user.username));
      const benEvents = await open(await sessionCookie(t.app, ben.user.username));
      const staffEvents = await open(await sessionCookie(t.app, 'dj'));
      const anonymous = await open();
      const before = answers.reloads;

      const res = await ask(ana.agent, song(0).id);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        track: { id: song(0).id, title: 'Song 0', artist: 'Band 0', album: null, duration: 180 },
        user: { id: ana.user.id, name: ana.user.username },
        status: 'pending',
        plannedAt: null,
        playedAt: null,
        reason: null,
      });
      expect(res.body.notBefore).toBe(res.body.requestedAt);
      await answers.waitForReloads(before + 1);

      const mine = (data: { requests: Update[] }) =>
        data.requests.some((r) => r.id === res.body.id);
      const heard = await anaEvents.next('request', mine);
      expect(heard.data).toEqual({
        requests: [
          {
            id: res.body.id,
            userId: ana.user.id,
            trackId: song(0).id,
            status: 'pending',
            plannedAt: null,
            playedAt: null,
            reason: null,
          },
        ],
      });
      await staffEvents.next('request', mine);
      // Ben's own request is the next event his stream gets; Ana's never reached it.
      const his = await ask(ben.agent, song(1).id);
      await benEvents.next(
        'request',
        (data: { requests: Update[] }) => data.requests[0]?.id === his.body.id,
      );
      await staffEvents.next(
        'request',
        (data: { requests: Update[] }) => data.requests[0]?.id === his.body.id,
      );
      expect(benEvents.events.filter((e) => e.event === 'request')).toHaveLength(1);
      expect(anaEvents.events.filter((e) => e.event === 'request')).toHaveLength(1);
      expect(anonymous.events.some((e) => e.event === 'request')).toBe(false);

      // Withdrawn: the update reaches Ana with the reason.
      expect((await ana.agent.delete(`${BASE}/requests/${res.body.id}`)).status).toBe(204);
      const removed = await anaEvents.next('request', (data: { requests: Update[] }) =>
        data.requests.some((r) => r.status === 'removed'),
      );
      expect(removed.data).toMatchObject({
        requests: [{ id: res.body.id, status: 'removed', reason: 'withdrawn by the listener' }],
      });
    } finally {
      for (const client of streams) client.close();
    }
  });

  it('refuses when requests are off, and an unknown track', async () => {
    const { agent } = await newListener();
    await settings({ enabled: false });
    try {
      const res = await ask(agent, song(2).id);
      expectError(res, 403, 'REQUESTS_DISABLED');
      expect(res.body.error.message).toBe('requests are turned off on this station');
    } finally {
      await settings({ enabled: true });
    }
    expectError(await ask(agent, 999_999), 404, 'API_TRACK_NOT_FOUND');
    expectError(await agent.post(`${BASE}/requests`).send({ trackId: 'x' }), 400, 'API_VALIDATION');
  });

  it('refuses a track requested already: pending, or within the threshold', async () => {
    const first = await newListener();
    const second = await newListener();
    expect((await ask(first.agent, song(3).id)).status).toBe(201);
    const pending = await ask(second.agent, song(3).id);
    expectError(pending, 409, 'REQUEST_ALREADY_REQUESTED');
    expect(pending.body.error.message).toBe('"Song 3" is requested already and waits to play');

    await t.db.db
      .insertInto('song_requests')
      .values({
        user_id: first.user.id,
        track_id: song(4).id,
        status: 'played',
        requested_at: new Date(Date.now() - 20 * MINUTE).toISOString(),
        not_before: new Date(Date.now() - 20 * MINUTE).toISOString(),
      })
      .execute();
    const recent = await ask(second.agent, song(4).id);
    expectError(recent, 409, 'REQUEST_ALREADY_REQUESTED');
    expect(recent.body.error.message).toBe(
      '"Song 4" was requested 20 minutes ago; a track can be requested again 60 minutes after its last request',
    );
  });

  it('refuses a track played within the threshold, then within track separation', async () => {
    const { agent } = await newListener();
    await played(song(5).id, 'Band 5', 10);
    const recent = await ask(agent, song(5).id);
    expectError(recent, 409, 'REQUEST_RECENTLY_PLAYED');
    expect(recent.body.error.message).toBe(
      '"Song 5" played 10 minutes ago; a track can be requested 60 minutes after it played',
    );

    const at = Date.now() - 90 * MINUTE;
    await played(song(6).id, 'Someone else', 90);
    const separated = await ask(agent, song(6).id);
    expectError(separated, 409, 'REQUEST_TRACK_SEPARATION');
    expect(separated.body.error.message).toBe(
      `"Song 6" played at ${hhmm(at)}; a track plays again no sooner than 180 minutes after (track separation), so request it from ${hhmm(at + 180 * MINUTE)}`,
    );
  });

  it('refuses an artist played within artist separation, unless the minimum delay clears it', async () => {
    const { agent } = await newListener();
    const at = Date.now() - 10 * MINUTE;
    await played(null, 'band 7', 10);
    const res = await ask(agent, song(7).id);
    expectError(res, 409, 'REQUEST_ARTIST_SEPARATION');
    expect(res.body.error.message).toBe(
      `Band 7 played at ${hhmm(at)}; an artist plays again no sooner than 30 minutes after (artist separation), so this request could play from ${hhmm(at + 30 * MINUTE)}: request it then`,
    );
    await settings({ minDelayMinutes: 25 });
    try {
      const delayed = await ask(agent, song(7).id);
      expect(delayed.status).toBe(201);
      expect(Date.parse(delayed.body.notBefore) - Date.parse(delayed.body.requestedAt)).toBe(
        25 * MINUTE,
      );
    } finally {
      await settings({ minDelayMinutes: 0 });
    }
  });

  it('limits pending requests per user', async () => {
    const { agent } = await newListener();
    await settings({ maxPendingPerUser: 2 });
    try {
      expect((await ask(agent, song(8).id)).status).toBe(201);
      expect((await ask(agent, song(9).id)).status).toBe(201);
      const res = await ask(agent, song(10).id);
      expectError(res, 429, 'REQUEST_TOO_MANY_PENDING');
      expect(res.body.error.message).toBe(
        'you have 2 pending requests; the limit is 2: wait until one plays',
      );
    } finally {
      await settings({ maxPendingPerUser: 3 });
    }
  });

  it('limits requests per hour, withdrawn ones too, with Retry-After', async () => {
    const { agent } = await newListener();
    await settings({ maxPerHourPerUser: 2 });
    try {
      const first = await ask(agent, song(11).id);
      expect((await agent.delete(`${BASE}/requests/${first.body.id}`)).status).toBe(204);
      expect((await ask(agent, song(12).id)).status).toBe(201);
      const res = await ask(agent, song(13).id);
      expect([res.status, res.body.error.code]).toEqual([429, 'REQUEST_HOURLY_LIMIT']);
      expect(res.body.error.message).toBe(
        'you made 2 requests in the last hour; the limit is 2 an hour: try again in 60 minutes',
      );
      const wait = Number(res.headers['retry-after']);
      expect(wait).toBeGreaterThan(3500);
      expect(wait).toBeLessThanOrEqual(3600);
    } finally {
      await settings({ maxPerHourPerUser: 5 });
    }
  });

  it('lists my requests and, for staff, everyone’s; admins remove, others may not', async () => {
    const owner = await newListener();
    const other = await newListener();
    const a = await ask(owner.agent, song(14).id);
    const b = await ask(owner.agent, song(15).id);
    const mine = await owner.agent.get(`${BASE}/requests/mine`);
    expect((mine.body.requests as { id: number }[]).map((r) => r.id)).toEqual([
      b.body.id,
      a.body.id,
    ]);
    expect((await other.agent.get(`${BASE}/requests/mine`)).body.requests).toEqual([]);

    const pending = await dj.get(`${BASE}/requests`).query({ status: 'pending' });
    const ids = (pending.body.requests as { id: number }[]).map((r) => r.id);
    expect(ids.indexOf(a.body.id)).toBeLessThan(ids.indexOf(b.body.id));
    expectError(await listener.get(`${BASE}/requests`), 403, 'API_FORBIDDEN');
    expectError(await dj.get(`${BASE}/requests`).query({ status: 'lost' }), 400, 'API_VALIDATION');

    expectError(
      await other.agent.delete(`${BASE}/requests/${a.body.id}`),
      404,
      'API_REQUEST_NOT_FOUND',
    );
    expectError(await dj.delete(`${BASE}/requests/${a.body.id}`), 404, 'API_REQUEST_NOT_FOUND');
    const before = answers.reloads;
    expect((await admin.delete(`${BASE}/requests/${a.body.id}`)).status).toBe(204);
    await answers.waitForReloads(before + 1);
    const removed = await admin.get(`${BASE}/requests`).query({ status: 'removed' });
    expect(removed.body.requests).toContainEqual(
      expect.objectContaining({ id: a.body.id, status: 'removed', reason: 'removed by an admin' }),
    );
    expectError(await admin.delete(`${BASE}/requests/${a.body.id}`), 409, 'API_CONFLICT');
    const audit = await t.db.db
      .selectFrom('audit_log')
      .select(['action', 'username'])
      .where('target', '=', `request ${a.body.id}`)
      .execute();
    expect(audit).toEqual([{ action: 'request.remove', username: 'admin' }]);
  });
});
