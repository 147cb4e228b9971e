/**
 * Live shows in the api: DJ broadcast credentials, the live input's state from the bus, kicks
 * as bus commands, recordings, and the go-live WebSocket's refusals. The bytes of a go-live
 * reaching the real live input are in live-harbor.test.ts.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type LiveState, verifyPassword } from '@radio/core';
import request from 'supertest';
import WebSocket from 'ws';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { openEvents } from './helpers/sse.ts';
import {
  type Agent,
  BASE,
  createUser,
  expectError,
  login,
  loginAll,
  PASSWORD,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

const ON_AIR: LiveState = {
  onAir: {
    dj: { id: 2, name: 'DJ Ana' },
    since: 1_700_000_000_000,
    title: null,
    bytesIn: 4096,
    format: 'mp3',
  },
  waiting: [],
  silent: false,
  recording: true,
};

/** The session cookie of a fresh login, as a browser would send it on the WebSocket. */
async function sessionCookie(t: TestApi, username: string): Promise<string> {
  const res = await request(t.app)
    .post(`${BASE}/auth/login`)
    .send({ username, password: PASSWORD });
  const cookies = res.headers['set-cookie'] as unknown as string[];
  return cookies.map((cookie) => cookie.split(';')[0]).join('; ');
}

interface Refusal {
  status: number;
  body: { error: { code: string; message: string } };
}

/** Opens the go-live WebSocket; resolves with the HTTP refusal, or the open socket. */
function openGoLive(
  t: TestApi,
  headers: Record<string, string>,
): Promise<{ refused: Refusal } | { ws: WebSocket }> {
  const url = `${t.api.url.replace(/^http/, 'ws')}${BASE}/live/ws`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { origin: t.api.url, ...headers } });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({ refused: { status: res.statusCode ?? 0, body: JSON.parse(text) } }),
      );
    });
    ws.on('open', () => resolve({ ws }));
    ws.on('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

async function expectRefused(
  t: TestApi,
  headers: Record<string, string>,
  status: number,
  code: string,
): Promise<void> {
  const result = await openGoLive(t, headers);
  if (!('refused' in result)) {
    result.ws.terminate();
    throw new Error(`the WebSocket opened; expected ${status} ${code}`);
  }
  expect([result.refused.status, result.refused.body.error.code]).toEqual([status, code]);
}

describe.each(ROUTE_SETUPS)('live shows ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let agents: { admin: Agent; dj: Agent; listener: Agent };
  let ids: { admin: number; dj: number; listener: number; other: number };

  beforeAll(async () => {
    // A port nothing listens on: the live input is not running in these tests.
    t = await startTestApi(setup, { liveUrl: 'http://127.0.0.1:9' });
    agents = await loginAll(t);
    const other = await createUser(t.db, 'otherdj', 'dj');
    const users = await t.db.db.selectFrom('users').select(['id', 'username']).execute();
    const idOf = (name: string) => users.find((u) => u.username === name)?.id as number;
    ids = { admin: idOf('admin'), dj: idOf('dj'), listener: idOf('listener'), other: other.id };
  });
  afterAll(() => t.close());

  const storedHash = async (userId: number) =>
    (
      await t.db.db
        .selectFrom('dj_accounts')
        .select('password_hash')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).password_hash;

  describe('broadcast credentials', () => {
    it('are given to a DJ with a password shown once, and refused to a listener', async () => {
      const created = await agents.admin
        .post(`${BASE}/dj-accounts`)
        .send({ userId: ids.dj, displayName: 'DJ Ana', recordShows: true });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        userId: ids.dj,
        username: 'dj',
        broadcastUsername: 'dj',
        displayName: 'DJ Ana',
        enabled: true,
        recordShows: true,
      });
      expect(created.body.password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(await verifyPassword(created.body.password, await storedHash(ids.dj))).toBe(true);

      const list = await agents.admin.get(`${BASE}/dj-accounts`);
      expect(list.status).toBe(200);
      expect(list.body.items).toHaveLength(1);
      expect(list.body.items[0].password).toBeUndefined();
      expect(JSON.stringify(list.body)).not.toContain(created.body.password);

      expectError(
        await agents.admin.post(`${BASE}/dj-accounts`).send({ userId: ids.dj }),
        409,
        'API_DJ_ACCOUNT_EXISTS',
      );
      expectError(
        await agents.admin.post(`${BASE}/dj-accounts`).send({ userId: ids.listener }),
        409,
        'API_DJ_ROLE_REQUIRED',
      );
      expectError(
        await agents.admin.post(`${BASE}/dj-accounts`).send({ userId: 999_999 }),
        404,
        'API_USER_NOT_FOUND',
      );
      expectError(
        await agents.admin
          .post(`${BASE}/dj-accounts`)
          .send({ userId: ids.other, broadcastUsername: 'DJ' }),
        409,
        'API_BROADCAST_USERNAME_TAKEN',
      );
      expectError(
        await agents.admin
          .post(`${BASE}/dj-accounts`)
          .send({ userId: ids.other, broadcastUsername: 'source' }),
        400,
        'API_VALIDATION',
      );
      expectError(
        await agents.dj.post(`${BASE}/dj-accounts`).send({ userId: ids.dj }),
        403,
        'API_FORBIDDEN',
      );
    });

    it('are regenerated (the old password stops working) by the admin and by the DJ', async () => {
      const before = await storedHash(ids.dj);
      const byAdmin = await agents.admin.post(`${BASE}/dj-accounts/${ids.dj}/password`);
      expect(byAdmin.status).toBe(200);
      const afterAdmin = await storedHash(ids.dj);
      expect(afterAdmin).not.toBe(before);
      expect(await verifyPassword(byAdmin.body.password, afterAdmin)).toBe(true);

      const byDj = await agents.dj.post(`${BASE}/dj/me/password`);
      expect(byDj.status).toBe(200);
      expect(byDj.body.password).not.toBe(byAdmin.body.password);
      const afterDj = await storedHash(ids.dj);
      expect(await verifyPassword(byAdmin.body.password, afterDj)).toBe(false);
      expect(await verifyPassword(byDj.body.password, afterDj)).toBe(true);
      expectError(
        await agents.admin.post(`${BASE}/dj/me/password`),
        404,
        'API_DJ_ACCOUNT_NOT_FOUND',
      );
    });

    it('show a DJ its own connection settings, and nothing to a listener', async () => {
      const mine = await agents.dj.get(`${BASE}/dj/me`);
      expect(mine.status).toBe(200);
      expect(mine.body.account).toMatchObject({ broadcastUsername: 'dj', displayName: 'DJ Ana' });
      expect(mine.body.connection).toMatchObject({ port: 9, mount: '/live' });
      expect(mine.body.connection.formats.join(' ')).toMatch(/audio\/mpeg.*audio\/webm/);
      expect((await agents.admin.get(`${BASE}/dj/me`)).body.account).toBeNull();
      expectError(await agents.listener.get(`${BASE}/dj/me`), 403, 'API_FORBIDDEN');
      expectError(await request(t.app).get(`${BASE}/dj/me`), 401, 'API_UNAUTHENTICATED');
    });

    it('change name, enabled and recording, and are deleted', async () => {
      const other = await agents.admin.post(`${BASE}/dj-accounts`).send({ userId: ids.other });
      expect(other.body).toMatchObject({
        broadcastUsername: 'otherdj',
        displayName: 'otherdj',
        recordShows: false,
      });
      const changed = await agents.admin.patch(`${BASE}/dj-accounts/${ids.other}`).send({
        broadcastUsername: 'Night.Owl',
        displayName: 'Night Owl',
        enabled: false,
        recordShows: true,
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        broadcastUsername: 'night.owl',
        displayName: 'Night Owl',
        enabled: false,
        recordShows: true,
      });
      expectError(
        await agents.admin.patch(`${BASE}/dj-accounts/${ids.other}`).send({}),
        400,
        'API_VALIDATION',
      );
      expectError(
        await agents.admin
          .patch(`${BASE}/dj-accounts/${ids.other}`)
          .send({ broadcastUsername: 'dj' }),
        409,
        'API_BROADCAST_USERNAME_TAKEN',
      );
      expect((await agents.admin.delete(`${BASE}/dj-accounts/${ids.other}`)).status).toBe(204);
      expectError(
        await agents.admin.delete(`${BASE}/dj-accounts/${ids.other}`),
        404,
        'API_DJ_ACCOUNT_NOT_FOUND',
      );
    });
  });

  describe('live state and kick', () => {
    it('reports nobody on air until the scheduler says, then what it says, on GET and SSE', async () => {
      const empty = await request(t.app).get(`${BASE}/live`);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ onAir: null, waiting: [], silent: false, recording: false });

      await t.bus.publishState('live.state', ON_AIR);
      expect((await request(t.app).get(`${BASE}/live`)).body).toEqual(ON_AIR);

      const events = await openEvents(`${t.api.url}${BASE}/events`);
      try {
        expect((await events.next('live.state')).data).toEqual(ON_AIR);
        await events.next('ready');
        const session = {
          dj: ON_AIR.onAir?.dj as { id: number; name: string },
          mount: '/live',
          at: 5,
        };
        await t.bus.publish('live.silent', { ...session, silentSeconds: 15 });
        await t.bus.publish('live.resumed', session);
        await t.bus.publish('live.disconnected', session);
        expect((await events.next('live.silent')).data).toEqual({ ...session, silentSeconds: 15 });
        expect((await events.next('live.resumed')).data).toEqual(session);
        expect((await events.next('live.disconnected')).data).toEqual(session);
      } finally {
        events.close();
      }
    });

    it('kicks through the live.kick bus command, for DJs and admins only', async () => {
      const targets: string[] = [];
      const stop = t.bus.handleCommands({
        'live.kick': async ({ target }) => {
          targets.push(target);
          return { kicked: target === 'waiting' ? [] : [{ id: ids.dj, name: 'DJ Ana' }] };
        },
      });
      try {
        const kicked = await agents.dj.post(`${BASE}/live/kick`);
        expect(kicked.status).toBe(200);
        expect(kicked.body).toEqual({ kicked: [{ id: ids.dj, name: 'DJ Ana' }] });
        expect(
          (await agents.admin.post(`${BASE}/live/kick`).send({ target: 'waiting' })).body,
        ).toEqual({
          kicked: [],
        });
        expect(targets).toEqual(['on_air', 'waiting']);
        expectError(
          await agents.admin.post(`${BASE}/live/kick`).send({ target: 'everyone' }),
          400,
          'API_VALIDATION',
        );
        expectError(await agents.listener.post(`${BASE}/live/kick`), 403, 'API_FORBIDDEN');
      } finally {
        stop();
      }
    });
  });

  describe('recordings', () => {
    let shows: { mine: number; theirs: number; onAir: number };
    const bytes = Buffer.from('ID3 not really an mp3, but bytes to send back');

    beforeAll(async () => {
      await mkdir(join(t.dataDir, 'recordings'), { recursive: true });
      const add = async (userId: number, file: string, ended: string | null) => {
        await writeFile(join(t.dataDir, 'recordings', file), bytes);
        const row = await t.db.db
          .insertInto('live_shows')
          .values({
            user_id: userId,
            dj_name: `DJ ${userId}`,
            started_at: '2026-11-25T01:00:00.000Z',
            ended_at: ended,
            peak_listeners: 7,
            recording_file: file,
            recording_bytes: bytes.length,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      };
      shows = {
        mine: await add(ids.dj, 'mine.mp3', '2026-11-25T01:30:00.000Z'),
        theirs: await add(ids.other, 'theirs.mp3', '2026-11-25T02:00:00.500Z'),
        onAir: await add(ids.dj, 'on-air.mp3', null),
      };
      // A show that was not recorded is not a recording.
      await t.db.db
        .insertInto('live_shows')
        .values({ user_id: ids.dj, dj_name: 'unrecorded' })
        .execute();
    });

    it('lists a DJ its own shows and an admin all, with duration and peak listeners', async () => {
      const mine = await agents.dj.get(`${BASE}/recordings`);
      expect(mine.status).toBe(200);
      expect(mine.body.total).toBe(2);
      const finished = mine.body.items.find((item: { id: number }) => item.id === shows.mine);
      expect(finished).toMatchObject({
        djName: `DJ ${ids.dj}`,
        duration: 1800,
        peakListeners: 7,
        bytes: bytes.length,
      });
      const live = mine.body.items.find((item: { id: number }) => item.id === shows.onAir);
      expect(live).toMatchObject({ endedAt: null, duration: null });
      const all = await agents.admin.get(`${BASE}/recordings`);
      expect(all.body.total).toBe(3);
      expect(all.body.items.find((item: { id: number }) => item.id === shows.theirs).duration).toBe(
        3600.5,
      );
      expectError(await agents.listener.get(`${BASE}/recordings`), 403, 'API_FORBIDDEN');
    });

    it("downloads a DJ's own recording and hides another DJ's", async () => {
      const file = await agents.dj.get(`${BASE}/recordings/${shows.mine}/file`).buffer(true);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('audio/mpeg');
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename=".+\.mp3"$/);
      expect(Buffer.compare(file.body as Buffer, bytes)).toBe(0);
      expectError(
        await agents.dj.get(`${BASE}/recordings/${shows.theirs}/file`),
        404,
        'API_RECORDING_NOT_FOUND',
      );
      expect((await agents.admin.get(`${BASE}/recordings/${shows.theirs}/file`)).status).toBe(200);
    });

    it('deletes a finished recording with its file, never a show on air', async () => {
      expectError(
        await agents.dj.delete(`${BASE}/recordings/${shows.onAir}`),
        409,
        'API_RECORDING_IN_PROGRESS',
      );
      expectError(
        await agents.dj.delete(`${BASE}/recordings/${shows.theirs}`),
        404,
        'API_RECORDING_NOT_FOUND',
      );
      expect((await agents.dj.delete(`${BASE}/recordings/${shows.mine}`)).status).toBe(204);
      await expect(stat(join(t.dataDir, 'recordings', 'mine.mp3'))).rejects.toThrow(/ENOENT/);
      expectError(
        await agents.dj.get(`${BASE}/recordings/${shows.mine}/file`),
        404,
        'API_RECORDING_NOT_FOUND',
      );
      expect((await agents.admin.delete(`${BASE}/recordings/${shows.theirs}`)).status).toBe(204);
      expect(await readFile(join(t.dataDir, 'recordings', 'on-air.mp3'))).toEqual(bytes);
    });
  });

  describe('the go-live WebSocket', () => {
    it('refuses without a session, without the dj role, across origins, and a disabled DJ', async () => {
      await expectRefused(t, {}, 401, 'API_UNAUTHENTICATED');
      await expectRefused(t, { cookie: await sessionCookie(t, 'listener') }, 403, 'API_FORBIDDEN');
      const dj = await sessionCookie(t, 'dj');
      await expectRefused(
        t,
        { cookie: dj, origin: 'http://evil.example' },
        403,
        'API_CROSS_ORIGIN',
      );
      await expectRefused(
        t,
        { cookie: await sessionCookie(t, 'admin') },
        404,
        'API_DJ_ACCOUNT_NOT_FOUND',
      );
      await agents.admin.patch(`${BASE}/dj-accounts/${ids.dj}`).send({ enabled: false });
      await expectRefused(t, { cookie: dj }, 403, 'API_DJ_DISABLED');
      await agents.admin.patch(`${BASE}/dj-accounts/${ids.dj}`).send({ enabled: true });
      expectError(await agents.dj.get(`${BASE}/live/ws`), 426, 'API_UPGRADE_REQUIRED');
    });

    it('tells the DJ when the live input cannot be reached, with a one-time token minted', async () => {
      const result = await openGoLive(t, { cookie: await sessionCookie(t, 'dj') });
      if (!('ws' in result)) throw new Error(`refused: ${JSON.stringify(result.refused)}`);
      const { ws } = result;
      const messages: unknown[] = [];
      ws.on('message', (data) => messages.push(JSON.parse(String(data))));
      const closed = await new Promise<{ code: number; reason: string }>((resolve) =>
        ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
      );
      expect(closed.code).toBe(4001);
      expect(closed.reason).toMatch(/live input/);
      expect(messages).toEqual([
        { type: 'refused', status: 0, message: expect.stringMatching(/live input/) },
      ]);
      const tokens = await t.db.db
        .selectFrom('live_tokens')
        .selectAll()
        .where('user_id', '=', ids.dj)
        .execute();
      expect(tokens).toHaveLength(1);
      expect(tokens[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});

describe('a DJ logged in with its login password only', () => {
  it('cannot use the login password as the broadcast password', async () => {
    const t = await startTestApi(ROUTE_SETUPS[0] as (typeof ROUTE_SETUPS)[number]);
    try {
      const user = await createUser(t.db, 'solo', 'dj');
      const admin = await createUser(t.db, 'boss', 'admin');
      void admin;
      const agent = await login(t.app, 'boss');
      const created = await agent.post(`${BASE}/dj-accounts`).send({ userId: user.id });
      const hash = (
        await t.db.db.selectFrom('dj_accounts').select('password_hash').executeTakeFirstOrThrow()
      ).password_hash;
      expect(await verifyPassword(PASSWORD, hash)).toBe(false);
      expect(await verifyPassword(created.body.password, hash)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
