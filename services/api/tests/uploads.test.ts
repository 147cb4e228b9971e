/**
 * Uploads over tus against the real scheduler (its watcher indexes what lands in the music
 * folder) on both dialects: real HTTP on loopback, files made by ffmpeg, and after every
 * refusal nothing in the music folder and nothing left in the upload store.
 */
import { createReadStream } from 'node:fs';
import { copyFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { locateFfmpeg, runFfmpeg, silentLogger } from '@radio/core';
import { generateTrack, writeCorruptFile } from '@radio/core/test-audio';
import { waitFor } from '@radio/core/testing';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { startLibraryScheduler } from './helpers/library-station.ts';
import { BASE, createUser, startTestApi, type TestApi } from './helpers/test-api.ts';
import {
  createUpload,
  errorCode,
  filesUnder,
  loginCookie,
  patchUpload,
  send,
  sha256,
  type TusAnswer,
  uploadFile,
  uploadOffset,
} from './helpers/tus.ts';

jest.setTimeout(300_000);

const ffmpegPath = locateFfmpeg().path;
const MB = 1024 * 1024;

interface TrackBody {
  id: number;
  path: string;
  title: string;
  status: string;
}

interface UploadResult {
  status: 'added' | 'duplicate';
  path: string;
  track: TrackBody | null;
  duplicateOf?: TrackBody;
}

describe.each(ROUTE_SETUPS)('uploads ($dialect)', (setup) => {
  let t: TestApi;
  let station: Awaited<ReturnType<typeof startLibraryScheduler>>;
  let fixtures: string;
  let dj: string;
  let admin: string;
  let listener: string;

  const files = (name: string): string => join(fixtures, name);
  /** The music folder without the upload store: what the scheduler may index. */
  const music = async (): Promise<string[]> =>
    (await filesUnder(t.musicDir)).filter((path) => !path.startsWith('.uploads/'));
  const store = async (): Promise<string[]> =>
    (await filesUnder(t.musicDir)).filter((path) => path.startsWith('.uploads/'));
  const upload = (file: string, metadata: Record<string, string>, cookie = dj) =>
    uploadFile(t.api.url, cookie, files(file), metadata);

  /** A refusal leaves the music folder as it was and the upload store empty. */
  async function expectRefused(answer: TusAnswer, status: number, code: string, before: string[]) {
    expect({ status: answer.status, code: errorCode(answer) }).toEqual({ status, code });
    expect(await music()).toEqual(before);
    expect(await store()).toEqual([]);
  }

  beforeAll(async () => {
    fixtures = await mkdtemp(join(tmpdir(), 'upload-fixtures-'));
    const tags = { title: 'Upload Song', artist: 'Uploader' };
    const options = { ffmpegPath };
    await generateTrack(
      files('song.mp3'),
      { format: 'mp3', durationSeconds: 3, frequency: 310, tags },
      options,
    );
    await generateTrack(
      files('song.flac'),
      { format: 'flac', durationSeconds: 3, frequency: 420, tags },
      options,
    );
    await generateTrack(
      files('twin-a.mp3'),
      { format: 'mp3', durationSeconds: 3, frequency: 520 },
      options,
    );
    await generateTrack(
      files('twin-b.mp3'),
      { format: 'mp3', durationSeconds: 3, frequency: 530 },
      options,
    );
    await generateTrack(
      files('library.mp3'),
      { format: 'mp3', durationSeconds: 9, frequency: 610, tags: { title: 'In the library' } },
      options,
    );
    const retag = ['-loglevel', 'error', '-y', '-i', files('library.mp3'), '-c', 'copy'];
    await runFfmpeg(
      [...retag, '-metadata', 'title=Same audio, other tags', files('retagged.mp3')],
      {
        ffmpegPath,
        logger: silentLogger(),
        name: 'retag',
      },
    );
    const film = [
      '-f',
      'lavfi',
      '-i',
      'testsrc=d=2:s=160x120:r=10',
      '-f',
      'lavfi',
      '-i',
      'sine=d=2',
    ];
    await runFfmpeg(
      ['-loglevel', 'error', '-y', ...film, '-c:v', 'mpeg4', '-c:a', 'aac', files('film.mp4')],
      {
        ffmpegPath,
        logger: silentLogger(),
        name: 'film',
      },
    );
    await writeCorruptFile(files('corrupt.mp3'));
    const noise = Buffer.alloc(256 * 1024);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    await writeFile(files('noise.mp3'), noise);

    t = await startTestApi(setup, { maxUploadBytes: 300 * MB }, { scheduler: false, bus: 'redis' });
    // A track already in the library (no audio hash yet): the retagged upload duplicates it.
    await copyFile(files('library.mp3'), join(t.musicDir, 'library.mp3'));
    station = await startLibraryScheduler(t);
    await createUser(t.db, 'admin', 'admin');
    await createUser(t.db, 'dj', 'dj');
    await createUser(t.db, 'listener', 'listener');
    admin = await loginCookie(t.api.url, 'admin');
    dj = await loginCookie(t.api.url, 'dj');
    listener = await loginCookie(t.api.url, 'listener');
    await waitFor('the library track indexed', async () => {
      const row = await t.db.db
        .selectFrom('tracks')
        .select('id')
        .where('path', '=', 'library.mp3')
        .executeTakeFirst();
      return row !== undefined;
    });
  });

  afterAll(async () => {
    await station?.close();
    await t?.close();
    if (fixtures) await rm(fixtures, { recursive: true, force: true });
  });

  it('adds an MP3 and a FLAC (in a folder): indexed tracks, in the audit log with the user', async () => {
    const mp3 = await upload('song.mp3', { filename: 'song.mp3' });
    expect(mp3.status).toBe(200);
    expect(mp3.headers['content-type']).toMatch(/^application\/json/);
    const added = mp3.json as UploadResult;
    expect(added).toMatchObject({ status: 'added', path: 'song.mp3' });
    expect(added.track).toMatchObject({ path: 'song.mp3', title: 'Upload Song', status: 'ok' });
    expect(await sha256(join(t.musicDir, 'song.mp3'))).toBe(await sha256(files('song.mp3')));

    const flac = await upload(
      'song.flac',
      { filename: 'Song.flac', folder: 'Uploads/Jazz' },
      admin,
    );
    expect(flac.status).toBe(200);
    expect((flac.json as UploadResult).track).toMatchObject({ path: 'Uploads/Jazz/Song.flac' });
    expect(await store()).toEqual([]);

    const log = await fetch(`${t.api.url}${BASE}/admin/audit?action=track.upload`, {
      headers: { Cookie: admin },
    });
    const page = (await log.json()) as {
      items: { username: string; target: string; details: { format: string } }[];
    };
    expect(page.items.map((entry) => [entry.username, entry.target, entry.details.format])).toEqual(
      [
        ['admin', 'Uploads/Jazz/Song.flac', 'flac'],
        ['dj', 'song.mp3', 'mp3'],
      ],
    );
    const hash = await t.db.db
      .selectFrom('tracks')
      .select('audio_hash')
      .where('path', '=', 'song.mp3')
      .executeTakeFirstOrThrow();
    expect(hash.audio_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses what is not playable audio, leaving nothing behind', async () => {
    const before = await music();
    await expectRefused(
      await upload('corrupt.mp3', { filename: 'corrupt.mp3' }),
      422,
      'UPLOAD_UNDECODABLE',
      before,
    );
    await expectRefused(
      await upload('noise.mp3', { filename: 'noise.mp3' }),
      415,
      'UPLOAD_NOT_AUDIO',
      before,
    );
    await expectRefused(
      await upload('film.mp4', { filename: 'film.mp4' }),
      415,
      'UPLOAD_VIDEO',
      before,
    );
    const empty = await createUpload({
      base: t.api.url,
      cookie: dj,
      metadata: { filename: 'empty.mp3' },
      length: 0,
    });
    await expectRefused(empty, 422, 'UPLOAD_EMPTY_FILE', before);
    const text = await createUpload({
      base: t.api.url,
      cookie: dj,
      metadata: { filename: 'notes.txt' },
      length: 10,
    });
    await expectRefused(text, 415, 'UPLOAD_NOT_AUDIO', before);
    const big = await createUpload({
      base: t.api.url,
      cookie: dj,
      metadata: { filename: 'big.mp3' },
      length: 2048 * MB,
    });
    await expectRefused(big, 413, 'UPLOAD_TOO_LARGE', before);
  });

  it.each([
    [{ filename: '../escape.mp3' }],
    [{ filename: 'song.mp3', folder: '../outside' }],
    [{ filename: 'song.mp3', folder: 'a/../../b' }],
    [{ filename: 'song.mp3', folder: '/etc' }],
    [{ filename: 'bell\u0007.mp3' }],
    [{ filename: 'line\nbreak.mp3' }],
    [{ filename: 'song.mp3', folder: 'ok/\u001b[31mred' }],
    [{ filename: '.hidden.mp3' }],
    [{ filename: 'song.mp3', folder: '.secret' }],
    [{ filename: `${'x'.repeat(300)}.mp3` }],
    [{ folder: 'no-name' }],
  ])('refuses the name %j with 400 before any byte', async (metadata) => {
    const before = await music();
    const answer = await createUpload({ base: t.api.url, cookie: dj, metadata, length: 1000 });
    await expectRefused(answer, 400, 'UPLOAD_BAD_NAME', before);
  });

  it('is for admins and DJs only, from this origin only', async () => {
    const meta = { filename: 'x.mp3' };
    const asListener = await createUpload({
      base: t.api.url,
      cookie: listener,
      metadata: meta,
      length: 10,
    });
    expect({ status: asListener.status, code: errorCode(asListener) }).toEqual({
      status: 403,
      code: 'API_FORBIDDEN',
    });
    const anonymous = await createUpload({
      base: t.api.url,
      cookie: '',
      metadata: meta,
      length: 10,
    });
    expect(anonymous.status).toBe(401);
    const foreign = await createUpload({
      base: t.api.url,
      cookie: dj,
      metadata: meta,
      length: 10,
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(await store()).toEqual([]);
  });

  it("keeps a DJ out of another user's upload", async () => {
    const created = await createUpload({
      base: t.api.url,
      cookie: admin,
      metadata: { filename: 'mine.mp3' },
      length: 100,
    });
    const location = created.location as string;
    const peek = await send({ method: 'HEAD', url: location, cookie: dj });
    expect(peek.status).toBe(403);
    const patch = await patchUpload(location, dj, 0, Buffer.alloc(100));
    expect({ status: patch.status, code: errorCode(patch) }).toEqual({
      status: 403,
      code: 'UPLOAD_NOT_YOURS',
    });
    expect((await send({ method: 'DELETE', url: location, cookie: admin })).status).toBe(204);
    expect(await store()).toEqual([]);
  });

  it('gives a name to exactly one of two uploads of it at once', async () => {
    const before = await music();
    const [a, b] = await Promise.all([
      upload('twin-a.mp3', { filename: 'twin.mp3', folder: 'twins' }),
      upload('twin-b.mp3', { filename: 'twin.mp3', folder: 'twins' }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(errorCode(loser)).toBe('UPLOAD_NAME_TAKEN');
    const winner = a.status === 200 ? 'twin-a.mp3' : 'twin-b.mp3';
    expect(await music()).toEqual([...before, 'twins/twin.mp3'].sort());
    expect(await sha256(join(t.musicDir, 'twins/twin.mp3'))).toBe(await sha256(files(winner)));
    expect(await store()).toEqual([]);
  });

  it('reports the same audio with other tags as a duplicate, hashing the library lazily', async () => {
    const before = await music();
    const original = await t.db.db
      .selectFrom('tracks')
      .selectAll()
      .where('path', '=', 'library.mp3')
      .executeTakeFirstOrThrow();
    expect(original.audio_hash).toBeNull();
    const answer = await upload('retagged.mp3', { filename: 'retagged.mp3' });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      status: 'duplicate',
      path: 'retagged.mp3',
      track: null,
      duplicateOf: { id: original.id, path: 'library.mp3' },
    });
    expect(await music()).toEqual(before);
    expect(await store()).toEqual([]);
    const stored = await t.db.db
      .selectFrom('tracks')
      .select('audio_hash')
      .where('id', '=', original.id)
      .executeTakeFirstOrThrow();
    expect(stored.audio_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a body beyond its declared length (413) and drops the upload', async () => {
    const before = await music();
    const created = await createUpload({
      base: t.api.url,
      cookie: dj,
      metadata: { filename: 'liar.mp3' },
      length: 4096,
    });
    // No Content-Length: the body streams on past the 4096 bytes it declared.
    const answer = await patchUpload(
      created.location as string,
      dj,
      0,
      createReadStream(files('song.mp3')),
    );
    expect((await stat(files('song.mp3'))).size).toBeGreaterThan(4096);
    await expectRefused(answer, 413, 'UPLOAD_TOO_LARGE', before);
    expect(await uploadOffset(created.location as string, dj)).toBeNull();
  });

  it('resumes a 200 MB upload cut off halfway; the file equals the source', async () => {
    const big = files('long.wav');
    // 20 minutes of 16-bit stereo PCM: about 200 MB.
    await runFfmpeg(
      [
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'sine=f=330:d=1190',
        '-ac',
        '2',
        '-ar',
        '44100',
        '-c:a',
        'pcm_s16le',
        big,
      ],
      {
        ffmpegPath,
        logger: silentLogger(),
        name: 'long wav',
      },
    );
    const { size } = await stat(big);
    expect(size).toBeGreaterThan(200 * 1000 * 1000);
    const created = await createUpload({
      base: t.api.url,
      cookie: dj,
      metadata: { filename: 'long.wav', folder: 'big' },
      length: size,
    });
    const url = created.location as string;
    const half = Math.floor(size / 2);
    await expect(
      patchUpload(url, dj, 0, createReadStream(big), { length: size, cutAfter: half }),
    ).rejects.toThrow();
    // The server keeps what arrived; its offset settles once it has written it.
    let last = -1;
    const offset = await waitFor('the offset to settle', async () => {
      const now = await uploadOffset(url, dj);
      const settled = now !== null && now === last ? now : undefined;
      last = now ?? -1;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return settled;
    });
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(half);
    expect(await music()).not.toContain('big/long.wav');
    const rest = await patchUpload(url, dj, offset, createReadStream(big, { start: offset }), {
      length: size - offset,
    });
    expect(rest.status).toBe(200);
    expect(rest.json).toMatchObject({ status: 'added', path: 'big/long.wav' });
    expect(await sha256(join(t.musicDir, 'big/long.wav'))).toBe(await sha256(big));
    expect(await store()).toEqual([]);
    await rm(big);
  });

  it('shows the music volume, the trash and unfinished uploads to admins', async () => {
    const created = await createUpload({
      base: t.api.url,
      cookie: dj,
      metadata: { filename: 'later.mp3' },
      length: 1000,
    });
    await patchUpload(created.location as string, dj, 0, Buffer.alloc(300));
    const res = await fetch(`${t.api.url}${BASE}/admin/storage`, { headers: { Cookie: admin } });
    const body = (await res.json()) as {
      music: { totalBytes: number; freeBytes: number; usedBytes: number };
      trash: { files: number };
      uploads: { files: number; bytes: number };
    };
    expect(body.music.totalBytes).toBeGreaterThan(0);
    expect(body.music.freeBytes).toBeLessThanOrEqual(body.music.totalBytes);
    expect(body.trash.files).toBe(0);
    expect(body.uploads).toEqual({ files: 1, bytes: 300 });
    const asDj = await fetch(`${t.api.url}${BASE}/admin/storage`, { headers: { Cookie: dj } });
    expect(asDj.status).toBe(403);
    expect(
      (await send({ method: 'DELETE', url: created.location as string, cookie: dj })).status,
    ).toBe(204);
  });
});
