import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Track } from '@radio/db';
import request from 'supertest';
import { ROUTE_SETUPS } from './helpers/databases.ts';
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

interface Item {
  id: number;
  position: number;
  track: { id: number; title: string };
}

describe.each(ROUTE_SETUPS)('playlists ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let dj: Agent;
  let listener: Agent;
  let tracks: Track[];

  beforeAll(async () => {
    t = await startTestApi(setup);
    ({ admin, dj, listener } = await loginAll(t));
    tracks = await insertTracks(
      t.db,
      ['One', 'Two', 'Three', 'Four'].map((title, i) => track({ title, duration: 100 + i })),
    );
  });
  afterAll(() => t.close());

  const ids = (n: number[]) => n.map((i) => (tracks[i] as Track).id);
  const order = (res: request.Response) =>
    (res.body.items as Item[]).map((item) => item.track.title);

  it('creates, lists, reads, changes and deletes a playlist', async () => {
    const created = await listener
      .post(`${BASE}/playlists`)
      .send({ name: '  Morning  ', description: 'wake up' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Morning',
      description: 'wake up',
      isPublic: false,
      owner: { username: 'listener' },
      itemCount: 0,
      duration: 0,
      items: [],
    });
    const id = created.body.id as number;

    const mine = await listener.get(`${BASE}/playlists`).query({ scope: 'mine' });
    expect(mine.body).toMatchObject({ total: 1, items: [{ id, name: 'Morning' }] });
    // Private: others do not see it, not even by id.
    expect((await dj.get(`${BASE}/playlists`)).body.total).toBe(0);
    expectError(await dj.get(`${BASE}/playlists/${id}`), 404, 'API_PLAYLIST_NOT_FOUND');
    // An admin can open it.
    expect((await admin.get(`${BASE}/playlists/${id}`)).status).toBe(200);

    const published = await listener
      .patch(`${BASE}/playlists/${id}`)
      .send({ isPublic: true, name: 'Mornings' });
    expect(published.body).toMatchObject({ isPublic: true, name: 'Mornings' });
    expect(
      (await dj.get(`${BASE}/playlists`)).body.items.map((p: { name: string }) => p.name),
    ).toEqual(['Mornings']);
    expect((await dj.get(`${BASE}/playlists`).query({ scope: 'mine' })).body.total).toBe(0);
    expect(
      (await dj.get(`${BASE}/playlists`).query({ scope: 'public', q: 'MORN' })).body.total,
    ).toBe(1);
    // Public is readable by everyone, changeable by the owner or an admin only.
    expectError(
      await dj.patch(`${BASE}/playlists/${id}`).send({ name: 'Mine now' }),
      403,
      'API_FORBIDDEN',
    );
    expectError(await dj.delete(`${BASE}/playlists/${id}`), 403, 'API_FORBIDDEN');
    expect(
      (await admin.patch(`${BASE}/playlists/${id}`).send({ description: null })).body.description,
    ).toBeNull();

    expectError(await listener.post(`${BASE}/playlists`).send({ name: '' }), 400, 'API_VALIDATION');
    expectError(
      await listener.post(`${BASE}/playlists`).send({ name: 'x'.repeat(201) }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await listener.post(`${BASE}/playlists`).send({ name: 'ok', owner: 1 }),
      400,
      'API_VALIDATION',
    );
    expectError(await listener.patch(`${BASE}/playlists/${id}`).send({}), 400, 'API_VALIDATION');
    expectError(await listener.get(`${BASE}/playlists/999999`), 404, 'API_PLAYLIST_NOT_FOUND');
    expectError(await listener.get(`${BASE}/playlists/nope`), 400, 'API_VALIDATION');
    expectError(await request(t.app).get(`${BASE}/playlists`), 401, 'API_UNAUTHENTICATED');
    expectError(
      await request(t.app).post(`${BASE}/playlists`).send({ name: 'x' }),
      401,
      'API_UNAUTHENTICATED',
    );

    expect((await listener.delete(`${BASE}/playlists/${id}`)).status).toBe(204);
    expectError(await listener.get(`${BASE}/playlists/${id}`), 404, 'API_PLAYLIST_NOT_FOUND');
  });

  it('adds tracks at positions, removes and reorders items', async () => {
    const id = (await dj.post(`${BASE}/playlists`).send({ name: 'Set' })).body.id as number;
    let res = await dj.post(`${BASE}/playlists/${id}/tracks`).send({ trackIds: ids([0, 1]) });
    expect(res.status).toBe(201);
    expect(order(res)).toEqual(['One', 'Two']);
    res = await dj
      .post(`${BASE}/playlists/${id}/tracks`)
      .send({ trackId: ids([2])[0], position: 1 });
    expect(order(res)).toEqual(['One', 'Three', 'Two']);
    res = await dj
      .post(`${BASE}/playlists/${id}/tracks`)
      .send({ trackId: ids([3])[0], position: 99 });
    expect(order(res)).toEqual(['One', 'Three', 'Two', 'Four']);
    res = await dj
      .post(`${BASE}/playlists/${id}/tracks`)
      .send({ trackId: ids([0])[0], position: 0 });
    expect(order(res)).toEqual(['One', 'One', 'Three', 'Two', 'Four']);
    expect((res.body.items as Item[]).map((item) => item.position)).toEqual([0, 1, 2, 3, 4]);
    expect(res.body).toMatchObject({ itemCount: 5, duration: 100 + 100 + 102 + 101 + 103 });

    const items = res.body.items as Item[];
    expect(
      (await dj.delete(`${BASE}/playlists/${id}/tracks/${(items[2] as Item).id}`)).status,
    ).toBe(204);
    res = await dj.get(`${BASE}/playlists/${id}`);
    expect(order(res)).toEqual(['One', 'One', 'Two', 'Four']);
    expect((res.body.items as Item[]).map((item) => item.position)).toEqual([0, 1, 2, 3]);

    const current = (res.body.items as Item[]).map((item) => item.id);
    const reversed = [...current].reverse();
    res = await dj.put(`${BASE}/playlists/${id}/tracks`).send({ itemIds: reversed });
    expect(res.status).toBe(200);
    expect(order(res)).toEqual(['Four', 'Two', 'One', 'One']);

    expectError(
      await dj.put(`${BASE}/playlists/${id}/tracks`).send({ itemIds: current.slice(1) }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await dj
        .put(`${BASE}/playlists/${id}/tracks`)
        .send({ itemIds: [...current.slice(1), current[1]] }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await dj.put(`${BASE}/playlists/${id}/tracks`).send({ itemIds: 'all' }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await dj.post(`${BASE}/playlists/${id}/tracks`).send({ trackId: 999999 }),
      404,
      'API_TRACK_NOT_FOUND',
    );
    expectError(await dj.post(`${BASE}/playlists/${id}/tracks`).send({}), 400, 'API_VALIDATION');
    expectError(
      await dj.post(`${BASE}/playlists/${id}/tracks`).send({ trackId: 1, trackIds: [1] }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await dj.post(`${BASE}/playlists/${id}/tracks`).send({ trackId: ids([0])[0], position: -1 }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await dj.delete(`${BASE}/playlists/${id}/tracks/999999`),
      404,
      'API_PLAYLIST_ITEM_NOT_FOUND',
    );
    expectError(
      await dj.delete(`${BASE}/playlists/999999/tracks/1`),
      404,
      'API_PLAYLIST_NOT_FOUND',
    );
    // Not the owner (private playlist of the dj): hidden.
    expectError(
      await listener.post(`${BASE}/playlists/${id}/tracks`).send({ trackId: ids([0])[0] }),
      404,
      'API_PLAYLIST_NOT_FOUND',
    );
    expectError(
      await listener.put(`${BASE}/playlists/${id}/tracks`).send({ itemIds: current }),
      404,
      'API_PLAYLIST_NOT_FOUND',
    );
  });

  it('sends a playlist to the scheduler (dj or admin), replacing or appending', async () => {
    const id = (
      await listener.post(`${BASE}/playlists`).send({ name: 'Public set', isPublic: true })
    ).body.id as number;
    await listener.post(`${BASE}/playlists/${id}/tracks`).send({ trackIds: ids([0, 1, 2]) });
    const played = await dj.post(`${BASE}/playlists/${id}/play`).send({ mode: 'replace' });
    expect(played.status).toBe(200);
    expect(played.body).toEqual({ queued: 3 });
    expect(t.scheduler?.queue.map((item) => item.title)).toEqual(['One', 'Two', 'Three']);
    const appended = await admin.post(`${BASE}/playlists/${id}/play`).send({ mode: 'append' });
    expect(appended.body).toEqual({ queued: 3 });
    expect(t.scheduler?.queue).toHaveLength(6);
    // No body: replace.
    expect((await dj.post(`${BASE}/playlists/${id}/play`)).body).toEqual({ queued: 3 });
    expect(t.scheduler?.queue).toHaveLength(3);

    expectError(await listener.post(`${BASE}/playlists/${id}/play`).send({}), 403, 'API_FORBIDDEN');
    expectError(
      await dj.post(`${BASE}/playlists/${id}/play`).send({ mode: 'shuffle' }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await dj.post(`${BASE}/playlists/999999/play`).send({}),
      404,
      'API_PLAYLIST_NOT_FOUND',
    );
    const empty = (await dj.post(`${BASE}/playlists`).send({ name: 'Empty' })).body.id as number;
    expectError(await dj.post(`${BASE}/playlists/${empty}/play`).send({}), 409, 'API_CONFLICT');
    expectError(
      await request(t.app).post(`${BASE}/playlists/${id}/play`).send({}),
      401,
      'API_UNAUTHENTICATED',
    );
  });

  it('keeps unicode and SQL-looking names exactly', async () => {
    for (const name of [
      "Robert'); DROP TABLE playlists;--",
      '日本語のプレイリスト 🎶',
      '%_\\',
      'ñ'.repeat(200),
    ]) {
      const res = await listener.post(`${BASE}/playlists`).send({ name });
      expect(res.status).toBe(201);
      expect(res.body.name).toBe(name);
      const found = await listener
        .get(`${BASE}/playlists`)
        .query({ q: name.slice(0, 10), scope: 'mine' });
      expect(found.body.items.map((p: { name: string }) => p.name)).toContain(name);
    }
    expect(
      (await listener.get(`${BASE}/playlists`).query({ q: '%', scope: 'mine' })).body.total,
    ).toBe(1);
  });
});
