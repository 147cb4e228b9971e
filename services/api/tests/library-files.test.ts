/**
 * Folders, moves, delete, restore and the trash's expiry, against the real scheduler (its
 * index follows renames and marks removed files missing) on both dialects.
 */
import { copyFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { locateFfmpeg } from '@radio/core';
import { generateTrack } from '@radio/core/test-audio';
import { waitFor } from '@radio/core/testing';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { startLibraryScheduler } from './helpers/library-station.ts';
import {
  type Agent,
  BASE,
  expectError,
  login,
  loginAll,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

jest.setTimeout(120_000);

interface TrackBody {
  id: number;
  path: string;
  title: string;
  status: string;
}

describe.each(ROUTE_SETUPS)('folders, move, delete and restore ($dialect)', (setup) => {
  let t: TestApi;
  let station: Awaited<ReturnType<typeof startLibraryScheduler>>;
  let admin: Agent;
  let dj: Agent;
  let listener: Agent;
  const ids = new Map<string, number>();
  const ffmpegPath = locateFfmpeg().path;

  beforeAll(async () => {
    t = await startTestApi(setup, {}, { scheduler: false, bus: 'redis' });
    const files = ['a/same.mp3', 'b/same.mp3', 'keep.flac', 'gone.mp3', 'twice.mp3', 'old.mp3'];
    for (const [i, path] of files.entries()) {
      await generateTrack(
        join(t.musicDir, path),
        {
          format: path.endsWith('.flac') ? 'flac' : 'mp3',
          durationSeconds: 2,
          frequency: 200 + i * 40,
          tags: { title: `Title ${i}` },
        },
        { ffmpegPath },
      );
    }
    station = await startLibraryScheduler(t);
    ({ admin, dj, listener } = await loginAll(t));
    const list = await listener.get(`${BASE}/tracks`).query({ limit: 200 });
    for (const track of list.body.items as TrackBody[]) ids.set(track.path, track.id);
    expect(ids.size).toBe(files.length);
  });

  afterAll(async () => {
    await station?.close();
    await t?.close();
  });

  const idOf = (path: string): number => ids.get(path) as number;

  it('creates folders and lists them with their track counts', async () => {
    const created = await dj.post(`${BASE}/library/folders`).send({ path: 'Jazz/Live' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ path: 'Jazz/Live', tracks: 0, total: 0 });
    expect((await stat(join(t.musicDir, 'Jazz/Live'))).isDirectory()).toBe(true);
    expectError(
      await dj.post(`${BASE}/library/folders`).send({ path: 'Jazz/Live' }),
      409,
      'API_PATH_TAKEN',
    );
    for (const path of [
      '../outside',
      'a/../../x',
      '.hidden',
      'a/.b',
      'bad\u0001name',
      'a\\b',
      '',
    ]) {
      expectError(await dj.post(`${BASE}/library/folders`).send({ path }), 400, 'API_VALIDATION');
    }
    expectError(await listener.post(`${BASE}/library/folders`).send({ path: 'x' }), 403);

    const res = await listener.get(`${BASE}/library/folders`);
    expect(res.status).toBe(200);
    const folders = res.body.folders as { path: string; tracks: number; total: number }[];
    expect(folders).toEqual(
      expect.arrayContaining([
        { path: '', tracks: 4, total: 6 },
        { path: 'a', tracks: 1, total: 1 },
        { path: 'Jazz', tracks: 0, total: 0 },
        { path: 'Jazz/Live', tracks: 0, total: 0 },
      ]),
    );
  });

  it('moves tracks into a folder: each keeps its id, a taken name fails alone', async () => {
    const res = await dj.post(`${BASE}/tracks/move`).send({
      ids: [idOf('a/same.mp3'), idOf('b/same.mp3'), idOf('keep.flac')],
      folder: 'Jazz/Live',
    });
    expect(res.status).toBe(200);
    expect(
      (res.body.moved as TrackBody[]).map((track) => [track.id, track.path, track.status]),
    ).toEqual([
      [idOf('a/same.mp3'), 'Jazz/Live/same.mp3', 'ok'],
      [idOf('keep.flac'), 'Jazz/Live/keep.flac', 'ok'],
    ]);
    expect(res.body.failed).toEqual([
      { id: idOf('b/same.mp3'), error: { code: 'API_PATH_TAKEN', message: expect.any(String) } },
    ]);
    expect((await stat(join(t.musicDir, 'b/same.mp3'))).isFile()).toBe(true);
    const inFolder = await listener.get(`${BASE}/tracks`).query({ folder: 'Jazz', sort: 'title' });
    expect((inFolder.body.items as TrackBody[]).map((track) => track.path).sort()).toEqual([
      'Jazz/Live/keep.flac',
      'Jazz/Live/same.mp3',
    ]);
    const one = await listener.get(`${BASE}/tracks/${idOf('keep.flac')}`);
    expect(one.body).toMatchObject({ path: 'Jazz/Live/keep.flac', status: 'ok' });

    expectError(
      await dj.post(`${BASE}/tracks/move`).send({ ids: [idOf('keep.flac')], folder: '../up' }),
      400,
      'API_VALIDATION',
    );
    const unknown = await dj.post(`${BASE}/tracks/move`).send({ ids: [999_999], folder: 'x' });
    expect(unknown.body.failed[0].error.code).toBe('API_TRACK_NOT_FOUND');
  });

  it('deletes a track: to the trash, out of every playlist, the queue and the requests; restores it', async () => {
    const id = idOf('twice.mp3');
    const other = idOf('old.mp3');
    // A listener's request that waits an hour (a track played a moment ago may be asked for).
    await admin
      .put(`${BASE}/settings/requests`)
      .send({ minDelayMinutes: 60, thresholdMinutes: 0 })
      .expect(200);
    const request = await listener.post(`${BASE}/requests`).send({ trackId: id }).expect(201);
    const playlist = await dj.post(`${BASE}/playlists`).send({ name: 'Delete test' });
    const added = await dj
      .post(`${BASE}/playlists/${playlist.body.id}/tracks`)
      .send({ trackIds: [id, other, id] });
    expect(added.status).toBeLessThan(300);
    const queued = await dj.post(`${BASE}/player/queue`).send({ trackId: id });
    expect(queued.status).toBe(201);

    // An admin: a DJ deletes only its own uploads (ownership.test.ts).
    const res = await admin.delete(`${BASE}/tracks/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      trashId: expect.any(Number),
      removedFromPlaylists: 2,
      // The request, and the rotation's pick of it if one was made ahead.
      removedFromQueue: expect.any(Number),
      removedRequests: 1,
      onAir: false,
    });
    // The listener sees why their request will not play.
    const mine = await listener.get(`${BASE}/requests/mine`).expect(200);
    expect(mine.body.requests).toEqual([
      expect.objectContaining({
        id: request.body.id,
        status: 'removed',
        reason: 'the track was deleted from the library',
      }),
    ]);
    expect(res.body.removedFromQueue).toBeGreaterThanOrEqual(1);
    const detail = await dj.get(`${BASE}/playlists/${playlist.body.id}`);
    const items = detail.body.items as { position: number; track: { id: number } }[];
    expect(items.map((item) => [item.position, item.track.id])).toEqual([[0, other]]);
    const queue = await dj.get(`${BASE}/player/queue`);
    expect((queue.body.items as { trackId: number }[]).some((item) => item.trackId === id)).toBe(
      false,
    );
    expect((await listener.get(`${BASE}/tracks/${id}`)).body.status).toBe('missing');
    const listed = await listener.get(`${BASE}/tracks`).query({ q: 'Title 4' });
    expect(listed.body.total).toBe(0);

    const trash = await dj.get(`${BASE}/trash`);
    expect(trash.body.items).toEqual([
      expect.objectContaining({ id: res.body.trashId, trackId: id, originalPath: 'twice.mp3' }),
    ]);
    expect(await readdir(join(t.dataDir, 'trash'))).toHaveLength(1);
    expectError(await listener.get(`${BASE}/trash`), 403);

    const restored = await dj.post(`${BASE}/trash/${res.body.trashId}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id, path: 'twice.mp3', status: 'ok' });
    expect((await dj.get(`${BASE}/trash`)).body.total).toBe(0);
    expect(await readdir(join(t.dataDir, 'trash'))).toHaveLength(0);
    const back = await listener.get(`${BASE}/tracks`).query({ q: 'Title 4' });
    expect((back.body.items as TrackBody[]).map((track) => track.id)).toEqual([id]);
    expectError(
      await dj.post(`${BASE}/trash/${res.body.trashId}/restore`),
      404,
      'API_TRASH_NOT_FOUND',
    );
  });

  it('refuses a restore onto a taken path (409), purges for good, 404 and 409 on delete', async () => {
    const id = idOf('gone.mp3');
    const deleted = await admin.delete(`${BASE}/tracks/${id}`);
    expect(deleted.status).toBe(200);
    await copyFile(join(t.musicDir, 'old.mp3'), join(t.musicDir, 'gone.mp3'));
    expectError(
      await dj.post(`${BASE}/trash/${deleted.body.trashId}/restore`),
      409,
      'API_PATH_TAKEN',
    );
    expect(await readdir(join(t.dataDir, 'trash'))).toHaveLength(1);
    const purged = await admin.delete(`${BASE}/trash/${deleted.body.trashId}`);
    expect(purged.status).toBe(204);
    expect(await readdir(join(t.dataDir, 'trash'))).toHaveLength(0);
    expectError(
      await admin.delete(`${BASE}/trash/${deleted.body.trashId}`),
      404,
      'API_TRASH_NOT_FOUND',
    );
    expectError(await dj.delete(`${BASE}/tracks/999999`), 404, 'API_TRACK_NOT_FOUND');
  });

  it('purges entries older than TRASH_DAYS when the api starts, audited as the station', async () => {
    const id = idOf('old.mp3');
    const deleted = await admin.delete(`${BASE}/tracks/${id}`);
    expect(deleted.status).toBe(200);
    await t.db.db
      .updateTable('trash')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', deleted.body.trashId)
      .execute();
    await t.restart();
    dj = await login(t.app, 'dj');
    listener = await login(t.app, 'listener');
    await waitFor(
      'the expired entry purged',
      async () => (await dj.get(`${BASE}/trash`)).body.total === 0,
    );
    expect(await readdir(join(t.dataDir, 'trash'))).toHaveLength(0);
    const purge = await t.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'trash.purge')
      .where('target', '=', 'old.mp3')
      .executeTakeFirstOrThrow();
    expect(purge.user_id).toBeNull();
  });

  it('audits moves, deletes, restores and folders with the user', async () => {
    const rows = await t.db.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    const actions = new Set(rows.map((row) => row.action));
    for (const action of [
      'folder.create',
      'track.move',
      'track.delete',
      'track.restore',
      'trash.purge',
    ]) {
      expect(actions).toContain(action);
    }
    const move = rows.find((row) => row.action === 'track.move');
    expect(move?.username).toBe('dj');
    expect(JSON.parse(move?.details ?? '{}')).toMatchObject({
      from: 'a/same.mp3',
      to: 'Jazz/Live/same.mp3',
    });
  });
});
