/**
 * Schedule entries: CRUD, validation, the overlap refusal (across midnight, around the
 * daylight-saving days of Europe/Berlin, within date ranges), occurrences in the station's
 * zone, and every change reaching the scheduler as `schedule.reload` and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { answerSchedule, type ScheduleAnswers } from './helpers/programming.ts';
import {
  type Agent,
  BASE,
  expectError,
  loginAll,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

type Schedule = { id: number; title: string | null; playlist: { id: number; name: string } | null };
type Occurrence = { scheduleId: number; start: string; end: string };

describe.each(ROUTE_SETUPS)('schedules ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let dj: Agent;
  let listener: Agent;
  let answers: ScheduleAnswers;
  let playlistId: number;
  let djUserId: number;
  let listenerId: number;

  beforeAll(async () => {
    t = await startTestApi(setup, { stationTimezone: 'Europe/Berlin' });
    ({ admin, dj, listener } = await loginAll(t));
    answers = answerSchedule(t.bus);
    const created = await admin.post(`${BASE}/playlists`).send({ name: 'Morning mix' });
    playlistId = created.body.id;
    const users = await admin.get(`${BASE}/users`);
    const byName = (name: string) =>
      (users.body.items as { id: number; username: string }[]).find((u) => u.username === name)
        ?.id as number;
    djUserId = byName('dj');
    listenerId = byName('listener');
  });
  afterAll(async () => {
    answers?.stop();
    await t?.close();
  });

  const create = (body: object) => admin.post(`${BASE}/schedules`).send(body);
  const remove = (id: number) => admin.delete(`${BASE}/schedules/${id}`);
  const span = (fields: object) => ({ playlistId, days: [1], ...fields });

  it('creates, lists, changes and deletes entries; each change reloads the scheduler and is audited', async () => {
    const before = answers.reloads;
    const res = await create(
      span({ title: 'Breakfast', days: [1, 2, 3, 4, 5], startTime: '06:00', endTime: '10:00' }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      playlistId,
      djUserId: null,
      title: 'Breakfast',
      days: [1, 2, 3, 4, 5],
      startTime: '06:00',
      endTime: '10:00',
      startDate: null,
      endDate: null,
      priority: 0,
      startMode: 'after_track',
      playlist: { id: playlistId, name: 'Morning mix' },
      dj: null,
    });
    const id = res.body.id as number;
    await answers.waitForReloads(before + 1);

    const list = await dj.get(`${BASE}/schedules`);
    expect(list.status).toBe(200);
    expect(list.body.timeZone).toBe('Europe/Berlin');
    expect((list.body.schedules as Schedule[]).map((s) => s.id)).toContain(id);

    const patched = await admin
      .patch(`${BASE}/schedules/${id}`)
      .send({ title: 'Early', startMode: 'interrupt' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, title: 'Early', startMode: 'interrupt' });
    await answers.waitForReloads(before + 2);

    expect((await remove(id)).status).toBe(204);
    await answers.waitForReloads(before + 3);
    expectError(
      await admin.patch(`${BASE}/schedules/${id}`).send({ title: 'x' }),
      404,
      'API_SCHEDULE_NOT_FOUND',
    );
    const actions = await t.db.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'username'])
      .where('target', '=', `schedule ${id}`)
      .orderBy('id')
      .execute();
    expect(actions.map((row) => row.action)).toEqual([
      'schedule.create',
      'schedule.update',
      'schedule.delete',
    ]);
    expect(actions[0]?.username).toBe('admin');
  });

  it('schedules a DJ show slot, and refuses a listener, an unknown DJ or playlist', async () => {
    const res = await create({ djUserId, days: [5], startTime: '20:00', endTime: '22:00' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      playlistId: null,
      djUserId,
      dj: { id: djUserId, name: 'dj' },
    });
    await remove(res.body.id);
    expectError(
      await create({ djUserId: listenerId, days: [5], startTime: '20:00', endTime: '22:00' }),
      409,
      'API_DJ_ROLE_REQUIRED',
    );
    expectError(
      await create({ djUserId: 999_999, days: [5], startTime: '20:00', endTime: '22:00' }),
      404,
      'API_USER_NOT_FOUND',
    );
    expectError(
      await create(span({ playlistId: 999_999, startTime: '20:00', endTime: '22:00' })),
      404,
      'API_PLAYLIST_NOT_FOUND',
    );
  });

  it("takes a deleted DJ's show slots off the schedule and tells the scheduler", async () => {
    const user = await admin
      .post(`${BASE}/users`)
      .send({ username: 'guest-dj', password: 'guest-dj-password', role: 'dj' });
    expect(user.status).toBe(201);
    const slot = await create({
      djUserId: user.body.id,
      days: [6],
      startTime: '20:00',
      endTime: '21:00',
    });
    expect(slot.status).toBe(201);
    const before = answers.reloads;
    expect((await admin.delete(`${BASE}/users/${user.body.id}`)).status).toBe(204);
    await answers.waitForReloads(before + 1);
    const list = await admin.get(`${BASE}/schedules`);
    expect((list.body.schedules as Schedule[]).map((s) => s.id)).not.toContain(slot.body.id);
  });

  it('refuses malformed entries with the field named', async () => {
    const bad: Array<[object, RegExp]> = [
      [
        span({ djUserId, startTime: '01:00', endTime: '02:00' }),
        /exactly one of playlistId and djUserId/,
      ],
      [
        { days: [1], startTime: '01:00', endTime: '02:00' },
        /exactly one of playlistId and djUserId/,
      ],
      [span({ startTime: '24:00', endTime: '02:00' }), /body\.startTime: expected HH:MM/],
      [span({ startTime: '1:00', endTime: '02:00' }), /body\.startTime/],
      [
        span({ days: [], startTime: '01:00', endTime: '02:00' }),
        /body\.days: give at least one day/,
      ],
      [span({ days: [8], startTime: '01:00', endTime: '02:00' }), /body\.days\.0/],
      [
        span({ startTime: '01:00', endTime: '02:00', startDate: '2026-02-30' }),
        /body\.startDate: not a calendar date/,
      ],
      [
        span({
          startTime: '01:00',
          endTime: '02:00',
          startDate: '2026-05-02',
          endDate: '2026-05-01',
        }),
        /startDate must not be after endDate/,
      ],
      [span({ startTime: '01:00', endTime: '02:00', startMode: 'later' }), /body\.startMode/],
    ];
    for (const [body, message] of bad) {
      const res = await create(body);
      expectError(res, 400, 'API_VALIDATION');
      expect(res.body.error.message).toMatch(message);
    }
    const ok = await create(span({ days: [7], startTime: '11:00', endTime: '12:00' }));
    const patched = await admin.patch(`${BASE}/schedules/${ok.body.id}`).send({ playlistId: null });
    expectError(patched, 400, 'API_VALIDATION');
    expect(patched.body.error.message).toMatch(/exactly one of playlistId and djUserId/);
    await remove(ok.body.id);
  });

  it('refuses an overlap of the same priority across midnight, naming the other entry', async () => {
    const night = await create(
      span({ title: 'Night', days: [1], startTime: '22:00', endTime: '02:00' }),
    );
    expect(night.status).toBe(201);
    const clash = await create(span({ days: [2], startTime: '01:00', endTime: '03:00' }));
    expect([clash.status, clash.body.error.code]).toEqual([409, 'SCHEDULE_OVERLAP']);
    expect(clash.body.error.message).toContain(
      `entry ${night.body.id} (Night: playlist Morning mix), Mon 22:00-02:00`,
    );
    expect(clash.body.error.details).toEqual({ otherId: night.body.id });

    const higher = await create(
      span({ days: [2], startTime: '01:00', endTime: '03:00', priority: 1 }),
    );
    expect(higher.status).toBe(201);
    const touching = await create(span({ days: [2], startTime: '02:00', endTime: '03:00' }));
    expect(touching.status).toBe(201);
    // Moving an entry onto another is refused the same way.
    const moved = await admin
      .patch(`${BASE}/schedules/${touching.body.id}`)
      .send({ startTime: '01:59' });
    expect(moved.status).toBe(409);
    expect(moved.body.error.details).toEqual({ otherId: night.body.id });
    for (const entry of [night, higher, touching]) await remove(entry.body.id);
  });

  it('checks overlaps on the daylight-saving days within date ranges', async () => {
    // 29 March 2026: Berlin skips 02:00-03:00; wall times still overlap from 03:00 to 04:00.
    const spring = await create(
      span({
        days: [7],
        startTime: '01:00',
        endTime: '04:00',
        startDate: '2026-03-29',
        endDate: '2026-03-29',
      }),
    );
    expect(spring.status).toBe(201);
    const clash = await create(
      span({
        days: [7],
        startTime: '03:00',
        endTime: '05:00',
        startDate: '2026-03-01',
        endDate: '2026-03-31',
      }),
    );
    expect(clash.status).toBe(409);
    expect(clash.body.error.details).toEqual({ otherId: spring.body.id });
    // The next Sunday only: no day in common.
    const later = await create(
      span({
        days: [7],
        startTime: '03:00',
        endTime: '05:00',
        startDate: '2026-04-05',
        endDate: '2026-04-05',
      }),
    );
    expect(later.status).toBe(201);
    // 25 October 2026: 02:00-03:00 happens twice; a span from the Saturday night reaches it.
    const autumn = await create(
      span({
        days: [6],
        startTime: '23:00',
        endTime: '02:30',
        startDate: '2026-10-24',
        endDate: '2026-10-24',
      }),
    );
    expect(autumn.status).toBe(201);
    const sunday = await create(
      span({
        days: [7],
        startTime: '02:00',
        endTime: '03:00',
        startDate: '2026-10-25',
        endDate: '2026-10-25',
      }),
    );
    expect(sunday.status).toBe(409);
    expect(sunday.body.error.details).toEqual({ otherId: autumn.body.id });
    for (const entry of [spring, later, autumn]) await remove(entry.body.id);
  });

  it('expands occurrences in Europe/Berlin, right across both daylight-saving changes', async () => {
    const weekly = await create(
      span({ title: 'Late', days: [7], startTime: '01:00', endTime: '04:00' }),
    );
    const night = await create(span({ days: [1], startTime: '22:00', endTime: '02:00' }));
    const query = async (from: string, to: string) => {
      const res = await dj.get(`${BASE}/schedules/occurrences`).query({ from, to });
      expect(res.status).toBe(200);
      return res.body.occurrences as Occurrence[];
    };
    const march = await query('2026-03-28T00:00:00Z', '2026-04-07T00:00:00Z');
    expect(march.filter((o) => o.scheduleId === weekly.body.id)).toEqual([
      // 01:00 CET to 04:00 CEST: two hours.
      expect.objectContaining({
        start: '2026-03-29T00:00:00.000Z',
        end: '2026-03-29T02:00:00.000Z',
      }),
      expect.objectContaining({
        start: '2026-04-04T23:00:00.000Z',
        end: '2026-04-05T02:00:00.000Z',
      }),
    ]);
    expect(march.filter((o) => o.scheduleId === night.body.id)).toEqual([
      expect.objectContaining({
        start: '2026-03-30T20:00:00.000Z',
        end: '2026-03-31T00:00:00.000Z',
      }),
      expect.objectContaining({
        start: '2026-04-06T20:00:00.000Z',
        end: '2026-04-07T00:00:00.000Z',
      }),
    ]);
    const october = await query('2026-10-24T12:00:00Z', '2026-10-26T00:00:00Z');
    // 01:00 CEST to 04:00 CET: four hours.
    expect(october.filter((o) => o.scheduleId === weekly.body.id)).toEqual([
      expect.objectContaining({
        start: '2026-10-24T23:00:00.000Z',
        end: '2026-10-25T03:00:00.000Z',
        title: 'Late',
        playlist: { id: playlistId, name: 'Morning mix' },
        dj: null,
        priority: 0,
        startMode: 'after_track',
      }),
    ]);
    await remove(weekly.body.id);
    await remove(night.body.id);
  });

  it('bounds the occurrence range and keeps the schedule from listeners', async () => {
    const range = (from: string, to: string) =>
      dj.get(`${BASE}/schedules/occurrences`).query({ from, to });
    expectError(await range('2026-03-01T00:00:00Z', '2026-04-02T00:00:00Z'), 400, 'API_VALIDATION');
    expectError(await range('2026-03-02T00:00:00Z', '2026-03-01T00:00:00Z'), 400, 'API_VALIDATION');
    expectError(await range('yesterday', '2026-03-01T00:00:00Z'), 400, 'API_VALIDATION');
    expect((await dj.get(`${BASE}/schedules/occurrences`)).status).toBe(200);
    expectError(await listener.get(`${BASE}/schedules`), 403, 'API_FORBIDDEN');
    expectError(
      await dj.post(`${BASE}/schedules`).send(span({ startTime: '01:00', endTime: '02:00' })),
      403,
      'API_FORBIDDEN',
    );
  });

  it('keeps a change when no scheduler answers the reload', async () => {
    answers.stop();
    try {
      const res = await create(span({ days: [3], startTime: '13:00', endTime: '14:00' }));
      expect(res.status).toBe(201);
      const list = await admin.get(`${BASE}/schedules`);
      expect((list.body.schedules as Schedule[]).map((s) => s.id)).toContain(res.body.id);
      await remove(res.body.id);
    } finally {
      answers = answerSchedule(t.bus);
    }
  });
});
