/**
 * Playlists' programming fields: defaults, admin-only writes, checks per kind, the audit log,
 * and `schedule.reload` after changes that can change what plays (a playlist on air).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Track } from '@radio/db';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { answerSchedule, type ScheduleAnswers } from './helpers/programming.ts';
import {
  type Agent,
  BASE,
  expectError,
  insertTracks,
  loginAll,
  startTestApi,
  type TestApi,
  track,
} from './helpers/test-api.ts';

describe.each(ROUTE_SETUPS)('playlist programming ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let listener: Agent;
  let answers: ScheduleAnswers;
  let tracks: Track[];

  beforeAll(async () => {
    t = await startTestApi(setup);
    ({ admin, listener } = await loginAll(t));
    answers = answerSchedule(t.bus);
    tracks = await insertTracks(t.db, [track(), track(), track()]);
  });
  afterAll(async () => {
    answers?.stop();
    await t?.close();
  });

  const create = (agent: Agent, body: object) =>
    agent.post(`${BASE}/playlists`).send({ name: 'Jingles', ...body });
  const patch = (agent: Agent, id: number, body: object) =>
    agent.patch(`${BASE}/playlists/${id}`).send(body);
  /** Waits for the reloads expected, then checks no other one came before them. */
  const expectReloads = async (count: number) => {
    await answers.waitForReloads(count);
    expect(answers.reloads).toBe(count);
  };

  it('gives a new playlist the personal defaults, readable by its owner', async () => {
    const res = await create(listener, { name: 'Mine' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      onAir: false,
      kind: 'rotation',
      order: 'shuffle',
      weight: 1,
      jingle: false,
      interval: null,
      playAt: null,
      startMode: 'after_track',
    });
    expect((await patch(listener, res.body.id, { name: 'Still mine' })).status).toBe(200);
  });

  it('lets only admins program a playlist', async () => {
    const created = await create(listener, { onAir: true });
    expectError(created, 403, 'API_FORBIDDEN');
    expect(created.body.error.message).toMatch(/only an admin .*\(onAir\)/);
    const own = await create(listener, { name: 'Own' });
    expectError(await patch(listener, own.body.id, { weight: 5 }), 403, 'API_FORBIDDEN');
  });

  it('programs a jingle rule: audited, and the scheduler reloads', async () => {
    const before = answers.reloads;
    const res = await create(admin, {
      onAir: true,
      kind: 'every_n_songs',
      interval: 4,
      jingle: true,
      order: 'sequential',
      weight: 5,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      onAir: true,
      kind: 'every_n_songs',
      interval: 4,
      jingle: true,
      order: 'sequential',
      weight: 5,
      playAt: null,
    });
    await expectReloads(before + 1);
    const audit = await t.db.db
      .selectFrom('audit_log')
      .select(['action', 'username'])
      .where('target', '=', `playlist ${res.body.id}`)
      .execute();
    expect(audit).toEqual([{ action: 'playlist.programming', username: 'admin' }]);

    // A kind without an interval clears it.
    const rotation = await patch(admin, res.body.id, { kind: 'rotation' });
    expect(rotation.body).toMatchObject({ kind: 'rotation', interval: null });
    await expectReloads(before + 2);
  });

  it('checks the interval and time each kind needs', async () => {
    const bad: Array<[object, string]> = [
      [
        { kind: 'every_n_songs' },
        'body.interval: a every_n_songs playlist needs songs between its tracks, 1-100',
      ],
      [
        { kind: 'every_n_songs', interval: 101 },
        'body.interval: a every_n_songs playlist needs songs between its tracks, 1-100',
      ],
      [
        { kind: 'every_n_minutes', interval: 1441 },
        'body.interval: a every_n_minutes playlist needs minutes between its tracks, 1-1440',
      ],
      [
        { kind: 'hourly_at', interval: 60 },
        'body.interval: a hourly_at playlist needs the minute of the hour, 0-59',
      ],
      [{ kind: 'once_at' }, 'body.playAt: a once_at playlist needs the time'],
      [
        { kind: 'rotation', interval: 5 },
        'body.interval: only every_n_songs, every_n_minutes and hourly_at playlists take one',
      ],
      [{ playAt: '2026-12-01T10:00:00Z' }, 'body.playAt: only once_at playlists take a time'],
    ];
    for (const [body, message] of bad) {
      const res = await create(admin, body);
      expectError(res, 400, 'API_VALIDATION');
      expect(res.body.error.message).toBe(message);
    }
    for (const body of [{ weight: 0 }, { weight: 101 }, { kind: 'daily' }, { playAt: 'noon' }]) {
      expectError(await create(admin, body), 400, 'API_VALIDATION');
    }
    const hourly = await create(admin, { kind: 'hourly_at', interval: 0, startMode: 'interrupt' });
    expect(hourly.body).toMatchObject({ kind: 'hourly_at', interval: 0, startMode: 'interrupt' });
    const once = await create(admin, { kind: 'once_at', playAt: '2026-12-01T11:00:00+01:00' });
    expect(once.body).toMatchObject({ kind: 'once_at', playAt: '2026-12-01T10:00:00.000Z' });
  });

  it('reloads after item changes of a playlist on air, not of one off air', async () => {
    const start = answers.reloads;
    const off = await create(admin, { name: 'Off air' });
    const on = await create(admin, { name: 'On air', onAir: true });
    const before = start + 1;
    await expectReloads(before);
    const [first, second] = tracks as [Track, Track];
    await admin.post(`${BASE}/playlists/${off.body.id}/tracks`).send({ trackId: first.id });
    const added = await admin
      .post(`${BASE}/playlists/${on.body.id}/tracks`)
      .send({ trackIds: [first.id, second.id] });
    expect(added.status).toBe(201);
    await expectReloads(before + 1);
    const items = (added.body.items as { id: number }[]).map((item) => item.id);
    await admin.put(`${BASE}/playlists/${on.body.id}/tracks`).send({ itemIds: items.reverse() });
    await expectReloads(before + 2);
    await admin.delete(`${BASE}/playlists/${on.body.id}/tracks/${items[0]}`);
    await expectReloads(before + 3);
    await patch(admin, off.body.id, { name: 'Still off' });
    await admin.delete(`${BASE}/playlists/${on.body.id}`);
    await expectReloads(before + 4);
  });
});
