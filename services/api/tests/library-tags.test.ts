/**
 * Tags and covers written into the files, against the real scheduler (its watcher re-indexes
 * each rewritten file) on both dialects: read back with ffprobe, the audio packets unchanged.
 */
import { copyFile, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { audioContentHash, locateFfmpeg, runFfmpeg, silentLogger } from '@radio/core';
import { generateTrack, type TestAudioFormat } from '@radio/core/test-audio';
import { waitFor } from '@radio/core/testing';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { hasPicture, probeTags, startLibraryScheduler } from './helpers/library-station.ts';
import {
  type Agent,
  BASE,
  expectError,
  loginAll,
  startTestApi,
  type TestApi,
} from './helpers/test-api.ts';

jest.setTimeout(120_000);

const FORMATS: TestAudioFormat[] = ['mp3', 'flac', 'ogg', 'opus', 'm4a'];

interface TrackBody {
  id: number;
  path: string;
  title: string;
  artist: string | null;
  album: string | null;
  genre: string | null;
  year: number | null;
  trackNo: number | null;
  hasCover: boolean;
  status: string;
}

describe.each(ROUTE_SETUPS)('tags written to the files ($dialect)', (setup) => {
  let t: TestApi;
  let station: Awaited<ReturnType<typeof startLibraryScheduler>>;
  let dj: Agent;
  let listener: Agent;
  const ffmpegPath = locateFfmpeg().path;
  const ids = new Map<string, number>();

  beforeAll(async () => {
    t = await startTestApi(setup, {}, { scheduler: false, bus: 'redis' });
    for (const [i, format] of FORMATS.entries()) {
      await generateTrack(
        join(t.musicDir, `tags/song-${format}.${format}`),
        {
          format,
          durationSeconds: 2,
          frequency: 300 + i * 50,
          cover: format === 'mp3',
          tags: { title: `Old ${format}`, artist: 'Old Artist', year: 1999, trackNo: 1 },
        },
        { ffmpegPath },
      );
    }
    station = await startLibraryScheduler(t);
    ({ dj, listener } = await loginAll(t));
    const list = await listener.get(`${BASE}/tracks`).query({ limit: 200 });
    for (const track of list.body.items as TrackBody[]) ids.set(track.path, track.id);
    expect(ids.size).toBe(FORMATS.length);
  });

  afterAll(async () => {
    await station?.close();
    await t?.close();
  });

  const idOf = (format: string): number => ids.get(`tags/song-${format}.${format}`) as number;
  const fileOf = (format: string): string => join(t.musicDir, `tags/song-${format}.${format}`);

  it.each(FORMATS)(
    'edits every tag of a %s file; ffprobe reads them back, audio unchanged',
    async (format) => {
      const before = await audioContentHash(fileOf(format));
      const res = await dj.patch(`${BASE}/tracks/${idOf(format)}/tags`).send({
        title: `  New ${format}  `,
        artist: 'New Artist',
        album: 'New Album',
        albumArtist: 'Various',
        genre: 'Jazz',
        year: 2021,
        trackNumber: 7,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: idOf(format),
        title: `New ${format}`,
        artist: 'New Artist',
        album: 'New Album',
        genre: 'Jazz',
        year: 2021,
        trackNo: 7,
        status: 'ok',
      });
      const tags = await probeTags(fileOf(format));
      expect(tags).toMatchObject({
        title: `New ${format}`,
        artist: 'New Artist',
        album: 'New Album',
        album_artist: 'Various',
        genre: 'Jazz',
      });
      expect(tags.date).toBe('2021');
      expect(tags.track).toBe('7');
      expect(await audioContentHash(fileOf(format))).toBe(before);
      // The search index shows it at once.
      const found = await listener.get(`${BASE}/tracks`).query({ q: `New ${format}` });
      expect((found.body.items as TrackBody[]).map((track) => track.id)).toEqual([idOf(format)]);
      expect(await readdir(join(t.musicDir, 'tags'))).not.toContainEqual(
        expect.stringMatching(/^\./),
      );
    },
  );

  it('keeps the cover of an MP3 through a tag edit; clears a tag with null or ""', async () => {
    const res = await dj
      .patch(`${BASE}/tracks/${idOf('mp3')}/tags`)
      .send({ genre: '', year: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ genre: null, year: null, hasCover: true });
    const tags = await probeTags(fileOf('mp3'));
    expect(tags.genre).toBeUndefined();
    expect(tags.date).toBeUndefined();
    expect(await hasPicture(fileOf('mp3'))).toBe(true);
  });

  it('replaces and removes a cover picture', async () => {
    const png = join(t.musicDir, '.cover-source.png');
    await runFfmpeg(
      [
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'color=c=red:s=32x32',
        '-frames:v',
        '1',
        png,
      ],
      {
        ffmpegPath,
        logger: silentLogger(),
        name: 'test cover',
      },
    );
    const image = await readFile(png);
    await rm(png);
    const before = await audioContentHash(fileOf('flac'));
    const put = await dj
      .put(`${BASE}/tracks/${idOf('flac')}/cover`)
      .set('content-type', 'image/png')
      .send(image);
    expect(put.status).toBe(200);
    expect(put.body.hasCover).toBe(true);
    const cover = await listener.get(`${BASE}/tracks/${idOf('flac')}/cover`);
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toMatch(/^image\/png/);
    expect(await audioContentHash(fileOf('flac'))).toBe(before);

    const removed = await dj.delete(`${BASE}/tracks/${idOf('flac')}/cover`);
    expect(removed.status).toBe(200);
    expect(removed.body.hasCover).toBe(false);
    expect(await hasPicture(fileOf('flac'))).toBe(false);

    // The bytes must be the image the type says.
    expectError(
      await dj
        .put(`${BASE}/tracks/${idOf('mp3')}/cover`)
        .set('content-type', 'image/jpeg')
        .send(image),
      415,
      'API_FORMAT_UNSUPPORTED',
    );
    expectError(
      await dj
        .put(`${BASE}/tracks/${idOf('mp3')}/cover`)
        .set('content-type', 'text/plain')
        .send('x'),
      415,
    );
  });

  it.each(['ogg', 'opus'])(
    'writes a %s cover as a Vorbis comment; a later tag edit keeps it; removes it',
    async (format) => {
      const png = join(t.musicDir, `.cover-${format}.png`);
      // Noise, so the picture is larger than a command-line argument may be (128 KB).
      await runFfmpeg(
        [
          ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i'],
          'nullsrc=s=256x256,geq=random(1)*255:random(2)*255:128',
          ...['-frames:v', '1', png],
        ],
        { ffmpegPath, logger: silentLogger(), name: 'test cover' },
      );
      const image = await readFile(png);
      await rm(png);
      expect(image.length).toBeGreaterThan(128 * 1024);
      const file = fileOf(format);
      const before = await audioContentHash(file);
      const tagsBefore = await probeTags(file);

      const put = await dj
        .put(`${BASE}/tracks/${idOf(format)}/cover`)
        .set('content-type', 'image/png')
        .send(image);
      expect(put.status).toBe(200);
      expect(put.body.hasCover).toBe(true);
      expect(await hasPicture(file)).toBe(true);
      const cover = await listener.get(`${BASE}/tracks/${idOf(format)}/cover`);
      expect(Buffer.from(cover.body as Buffer)).toEqual(image);
      expect(await probeTags(file)).toMatchObject({
        title: tagsBefore.title,
        artist: tagsBefore.artist,
        album_artist: tagsBefore.album_artist,
      });

      const edit = await dj.patch(`${BASE}/tracks/${idOf(format)}/tags`).send({ genre: 'Folk' });
      expect(edit.body).toMatchObject({ genre: 'Folk', hasCover: true });
      expect(await hasPicture(file)).toBe(true);

      const removed = await dj.delete(`${BASE}/tracks/${idOf(format)}/cover`);
      expect(removed.body).toMatchObject({ hasCover: false, genre: 'Folk' });
      expect(await hasPicture(file)).toBe(false);
      expect(await audioContentHash(file)).toBe(before);
    },
  );

  it('edits many tracks at once; each fails alone', async () => {
    const res = await dj
      .patch(`${BASE}/tracks/tags`)
      .send({ ids: [idOf('mp3'), idOf('m4a'), 999_999], tags: { album: 'Bulk Album' } });
    expect(res.status).toBe(200);
    expect((res.body.updated as TrackBody[]).map((track) => [track.id, track.album])).toEqual([
      [idOf('mp3'), 'Bulk Album'],
      [idOf('m4a'), 'Bulk Album'],
    ]);
    expect(res.body.failed).toEqual([
      { id: 999_999, error: { code: 'API_TRACK_NOT_FOUND', message: expect.any(String) } },
    ]);
    expect((await probeTags(fileOf('m4a'))).album).toBe('Bulk Album');
  });

  it('refuses bad input', async () => {
    const id = idOf('mp3');
    expectError(
      await dj.patch(`${BASE}/tracks/999999/tags`).send({ title: 'x' }),
      404,
      'API_TRACK_NOT_FOUND',
    );
    for (const body of [
      { year: 'soon' },
      { year: 99_999 },
      { year: 2020.5 },
      { trackNumber: 0 },
      { title: 'x'.repeat(501) },
      { mood: 'happy' },
      {},
    ]) {
      expectError(await dj.patch(`${BASE}/tracks/${id}/tags`).send(body), 400, 'API_VALIDATION');
    }
    expectError(await listener.patch(`${BASE}/tracks/${id}/tags`).send({ title: 'x' }), 403);
    expectError(await dj.patch(`${BASE}/tracks/tags`).send({ ids: [], tags: { title: 'x' } }), 400);
  });

  it('answers 409 when the file is gone, and leaves no temporary file on an ffmpeg failure', async () => {
    const spare = join(t.musicDir, 'tags/spare.mp3');
    await copyFile(fileOf('mp3'), spare);
    const id = await waitFor('the spare copy indexed', async () => {
      const list = await listener.get(`${BASE}/tracks`).query({ limit: 200 });
      return (list.body.items as TrackBody[]).find((track) => track.path === 'tags/spare.mp3')?.id;
    });
    await rm(spare);
    expectError(
      await dj.patch(`${BASE}/tracks/${id}/tags`).send({ title: 'x' }),
      409,
      'API_FILE_MISSING',
    );

    // MP3 audio in a file named .ogg: the Ogg muxer cannot take it, so ffmpeg fails.
    const broken = join(t.musicDir, 'tags/broken.ogg');
    await copyFile(fileOf('mp3'), broken);
    const brokenId = await waitFor('the mislabelled copy indexed', async () => {
      const list = await listener.get(`${BASE}/tracks`).query({ limit: 200, status: 'all' });
      return (list.body.items as TrackBody[]).find((track) => track.path === 'tags/broken.ogg')?.id;
    });
    expectError(
      await dj.patch(`${BASE}/tracks/${brokenId}/tags`).send({ title: 'x' }),
      422,
      'API_TAG_WRITE_FAILED',
    );
    expect(await readdir(join(t.musicDir, 'tags'))).not.toContainEqual(
      expect.stringMatching(/^\./),
    );
  });

  it('records each edit in the audit log with the old and new values', async () => {
    const rows = await t.db.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', 'in', ['track.tags', 'track.cover'])
      .orderBy('id')
      .execute();
    const first = rows.find(
      (row) => row.target === 'tags/song-mp3.mp3' && row.action === 'track.tags',
    );
    expect(first?.username).toBe('dj');
    expect(JSON.parse(first?.details ?? '{}')).toMatchObject({
      old: { title: 'Old mp3', artist: 'Old Artist', year: 1999 },
      new: { title: 'New mp3', year: 2021, trackNumber: 7 },
    });
    expect(rows.some((row) => row.action === 'track.cover')).toBe(true);
  });
});
