/**
 * Who may take whom off air: an admin kicks anyone; a DJ only itself, on air or waiting, and
 * its kick names it so the scheduler drops nobody else (live-kick-own.test.ts in the scheduler
 * shows that filter on the real live input). The live input's state and the scheduler's answer
 * come over the bus, as live.test.ts does it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LiveSource, LiveState } from '@radio/core';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  type Agent,
  BASE,
  createUser,
  expectError,
  login,
  loginAll,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

function source(id: number, name: string): LiveSource {
  return { dj: { id, name }, since: 1_700_000_000_000, title: null, bytesIn: 1, format: 'mp3' };
}

describe.each(ROUTE_SETUPS)('kicking live DJs ($dialect)', (setup) => {
  let t: TestApi;
  let agents: { admin: Agent; dj: Agent };
  let other: Agent;
  let ids: { dj: number; other: number };
  const sent: Array<{ target: string; djId?: number | undefined }> = [];
  let stop: () => void;

  beforeAll(async () => {
    t = await startTestApi(setup);
    agents = await loginAll(t);
    const otherUser = await createUser(t.db, 'other-dj', 'dj');
    other = await login(t.app, 'other-dj');
    const dj = await t.db.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'dj')
      .executeTakeFirstOrThrow();
    ids = { dj: dj.id, other: otherUser.id };
    // The scheduler's live input: drops the sources the command names, and says whom.
    stop = t.bus.handleCommands({
      'live.kick': async (payload) => {
        sent.push(payload);
        const state = (await t.bus.getState('live-state')) as LiveState;
        const covered = [
          ...(payload.target !== 'waiting' && state.onAir ? [state.onAir] : []),
          ...(payload.target !== 'on_air' ? state.waiting : []),
        ].filter((s) => payload.djId === undefined || s.dj.id === payload.djId);
        return { kicked: covered.map((s) => s.dj) };
      },
    });
  });

  afterAll(async () => {
    stop?.();
    await t?.close();
  });

  const live = (onAir: LiveSource | null, waiting: LiveSource[]) =>
    t.bus.publishState('live.state', { onAir, waiting, silent: false, recording: false });

  it('refuses a DJ that kicks another DJ, on air or waiting, and sends nothing', async () => {
    await live(source(ids.other, 'Other'), []);
    sent.length = 0;
    expectError(
      await agents.dj.post(`${BASE}/live/kick`).send({ target: 'on_air' }),
      403,
      'API_FORBIDDEN',
    );
    await live(source(ids.dj, 'Me'), [source(ids.other, 'Other')]);
    expectError(
      await agents.dj.post(`${BASE}/live/kick`).send({ target: 'waiting' }),
      403,
      'API_FORBIDDEN',
    );
    const refused = await other.post(`${BASE}/live/kick`).send({ target: 'on_air' });
    expectError(refused, 403, 'API_FORBIDDEN');
    expect(refused.body.error.message).toContain('Me');
    expect(sent).toEqual([]);
  });

  it('lets a DJ kick itself, on air or waiting, and names it in the command', async () => {
    await live(source(ids.dj, 'Me'), [source(ids.other, 'Other')]);
    sent.length = 0;
    const onAir = await agents.dj.post(`${BASE}/live/kick`).send({ target: 'on_air' });
    expect(onAir.status).toBe(200);
    expect(onAir.body).toEqual({ kicked: [{ id: ids.dj, name: 'Me' }] });
    // `all` from the waiting DJ: itself only, the DJ on air stays.
    const waiting = await other.post(`${BASE}/live/kick`).send({ target: 'all' });
    expect(waiting.body).toEqual({ kicked: [{ id: ids.other, name: 'Other' }] });
    expect(sent).toEqual([
      { target: 'on_air', djId: ids.dj },
      { target: 'all', djId: ids.other },
    ]);
  });

  it('lets an admin kick anyone', async () => {
    await live(source(ids.dj, 'Me'), [source(ids.other, 'Other')]);
    sent.length = 0;
    const res = await agents.admin.post(`${BASE}/live/kick`).send({ target: 'all' });
    expect(res.body.kicked).toEqual([
      { id: ids.dj, name: 'Me' },
      { id: ids.other, name: 'Other' },
    ]);
    expect(sent).toEqual([{ target: 'all' }]);
  });
});
