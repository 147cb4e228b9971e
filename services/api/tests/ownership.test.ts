/**
 * Roles that cannot destroy: a DJ moves to the trash only the tracks it uploaded, and only an
 * admin deletes from the trash for good; against the real scheduler (it indexes the uploads)
 * on both dialects. Playlists and recordings of other users are refused to a DJ already
 * (playlists.test.ts, live.test.ts); kicks are in live-kick.test.ts.
 */
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
  createUser,
  expectError,
  login,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';
import { loginCookie, uploadFile } from './helpers/tus.ts';

jest.setTimeout(180_000);

const ffmpegPath = locateFfmpeg().path;

describe.each(ROUTE_SETUPS)('who may delete what ($dialect)', (setup) => {
  let t: TestApi;
  let station: Awaited<ReturnType<typeof startLibraryScheduler>>;
  let fixtures: string;
  let admin: Agent;
  let dj: Agent;
  let otherDj: Agent;
  let djId: number;
  let otherId: number;

  const file = (name: string) => join(fixtures, name);
  async function trackAt(path: string): Promise<{ id: number; uploaded_by: number | null }> {
    return waitFor(`${path} indexed`, () =>
      t.db.db
        .selectFrom('tracks')
        .select(['id', 'uploaded_by'])
        .where('path', '=', path)
        .where('status', '=', 'ok')
        .executeTakeFirst(),
    );
  }
  async function upload(name: string, username: string): Promise<number> {
    const cookie = await loginCookie(t.api.url, username);
    const answer = await uploadFile(t.api.url, cookie, file(name), { filename: name });
    expect(answer.status).toBe(200);
    return (await trackAt(name)).id;
  }

  beforeAll(async () => {
    fixtures = await mkdtemp(join(tmpdir(), 'ownership-'));
    for (const [i, name] of ['mine.mp3', 'placed.mp3', 'late.mp3', 'theirs.mp3'].entries()) {
      await generateTrack(
        file(name),
        { format: 'mp3', durationSeconds: 2, frequency: 300 + i * 70, tags: { title: name } },
        { ffmpegPath },
      );
    }
    t = await startTestApi(setup, {}, { scheduler: false, bus: 'redis' });
    await copyFile(file('placed.mp3'), join(t.musicDir, 'placed.mp3'));
    station = await startLibraryScheduler(t);
    await createUser(t.db, 'admin', 'admin');
    djId = (await createUser(t.db, 'dj', 'dj')).id;
    otherId = (await createUser(t.db, 'other', 'dj')).id;
    admin = await login(t.app, 'admin');
    dj = await login(t.app, 'dj');
    otherDj = await login(t.app, 'other');
  });

  afterAll(async () => {
    await station?.close();
    await t?.close();
    if (fixtures) await rm(fixtures, { recursive: true, force: true });
  });

  it('records the uploader on the track', async () => {
    const id = await upload('mine.mp3', 'dj');
    const row = await t.db.db
      .selectFrom('tracks')
      .select('uploaded_by')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.uploaded_by).toBe(djId);
  });

  it("refuses a DJ another user's upload and a file it did not upload; the file stays", async () => {
    const mine = (await trackAt('mine.mp3')).id;
    const placed = (await trackAt('placed.mp3')).id;
    const refused = await otherDj.delete(`${BASE}/tracks/${mine}`);
    expectError(refused, 403, 'API_FORBIDDEN');
    expect(refused.body.error.message).toMatch(/only the tracks it uploaded/);
    expectError(await dj.delete(`${BASE}/tracks/${placed}`), 403, 'API_FORBIDDEN');
    expect((await stat(join(t.musicDir, 'mine.mp3'))).isFile()).toBe(true);
    expect((await stat(join(t.musicDir, 'placed.mp3'))).isFile()).toBe(true);
    expect((await dj.get(`${BASE}/trash`)).body.total).toBe(0);
  });

  it('lets a DJ delete its own upload, and only an admin purge it; an admin deletes any', async () => {
    const mine = (await trackAt('mine.mp3')).id;
    const deleted = await dj.delete(`${BASE}/tracks/${mine}`);
    expect(deleted.status).toBe(200);
    const purge = `${BASE}/trash/${deleted.body.trashId}`;
    expectError(await dj.delete(purge), 403, 'API_FORBIDDEN');
    expect((await dj.get(`${BASE}/trash`)).body.total).toBe(1);
    expect((await admin.delete(purge)).status).toBe(204);

    const placed = (await trackAt('placed.mp3')).id;
    expect((await admin.delete(`${BASE}/tracks/${placed}`)).status).toBe(200);
  });

  it('knows the uploader from the audit log while the track has none yet', async () => {
    // An upload the scheduler indexed after the upload was answered: its row came later.
    await copyFile(file('late.mp3'), join(t.musicDir, 'late.mp3'));
    await t.db.db
      .insertInto('audit_log')
      .values({ user_id: otherId, username: 'other', action: 'track.upload', target: 'late.mp3' })
      .execute();
    const late = await trackAt('late.mp3');
    expect(late.uploaded_by).toBeNull();
    expectError(await dj.delete(`${BASE}/tracks/${late.id}`), 403, 'API_FORBIDDEN');
    expect((await otherDj.delete(`${BASE}/tracks/${late.id}`)).status).toBe(200);
  });

  it('gives a path uploaded again to its new uploader', async () => {
    const first = await upload('theirs.mp3', 'other');
    expect((await otherDj.delete(`${BASE}/tracks/${first}`)).status).toBe(200);
    // The same name again, by another DJ: the scheduler brings the same row back.
    const again = await upload('theirs.mp3', 'dj');
    expect(again).toBe(first);
    expect((await trackAt('theirs.mp3')).uploaded_by).toBe(djId);
    expectError(await otherDj.delete(`${BASE}/tracks/${again}`), 403, 'API_FORBIDDEN');
  });
});
