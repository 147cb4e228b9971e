import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { locateFfmpeg } from '@radio/core';
import { generateTrack } from '@radio/core/test-audio';
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

describe.each(ROUTE_SETUPS)('tracks ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let listener: Agent;
  let rows: Track[];
  let withCover: Track;

  beforeAll(async () => {
    t = await startTestApi(setup);
    ({ listener } = await loginAll(t));
    const ffmpeg = locateFfmpeg({});
    await generateTrack(
      join(t.musicDir, 'covers/with-cover.mp3'),
      { format: 'mp3', durationSeconds: 1, cover: true, tags: { title: 'Pictured' } },
      { ffmpegPath: ffmpeg.path },
    );
    await generateTrack(
      join(t.musicDir, 'covers/no-cover.mp3'),
      { format: 'mp3', durationSeconds: 1, tags: { title: 'Plain' } },
      { ffmpegPath: ffmpeg.path },
    );
    rows = await insertTracks(t.db, [
      track({
        title: 'Blue Monday',
        artist: 'New Order',
        album: 'Power, Corruption & Lies',
        genre: 'Synth-pop',
        year: 1983,
        track_no: 1,
        duration: 448,
      }),
      track({
        title: 'Age of Consent',
        artist: 'New Order',
        album: 'Power, Corruption & Lies',
        genre: 'Synth-pop',
        year: 1983,
        track_no: 2,
        duration: 315,
      }),
      track({
        title: 'Love Will Tear Us Apart',
        artist: 'Joy Division',
        album: 'Substance',
        genre: 'Post-punk',
        year: 1988,
        track_no: 1,
        duration: 205,
      }),
      track({
        title: 'Déjà Vu',
        artist: 'Beyoncé',
        album: "B'Day",
        genre: 'R&B',
        year: 2006,
        duration: 240,
      }),
      track({
        title: '東京',
        artist: '坂本龍一',
        album: 'Tokyo Songs',
        genre: 'Ambient',
        year: 1980,
        duration: 300,
      }),
      track({
        title: "100% Pure_Love 'Quoted'; DROP TABLE tracks; --",
        artist: 'Crystal Waters',
        album: 'Storyteller',
        year: 1994,
        duration: 200,
      }),
      track({
        title: 'Broken File',
        artist: 'Nobody',
        status: 'invalid',
        error: 'not an audio file',
      }),
      track({ title: 'Gone', artist: 'Nobody', status: 'missing' }),
      track({
        title: 'Pictured',
        path: 'covers/with-cover.mp3',
        has_cover: 1,
        artist: 'Art',
        album: 'Gallery',
      }),
      track({ title: 'Plain', path: 'covers/no-cover.mp3', artist: 'Art', album: 'Gallery' }),
      track({ title: 'Outside', path: '../../etc/passwd', has_cover: 1 }),
    ]);
    withCover = rows.find((row) => row.title === 'Pictured') as Track;
  });
  afterAll(() => t.close());

  const titles = (res: request.Response) =>
    (res.body.items as Array<{ title: string }>).map((item) => item.title);

  it('needs the session cookie: 401 without, 200 with the cookie from /auth/login', async () => {
    expectError(await request(t.app).get(`${BASE}/tracks`), 401, 'API_UNAUTHENTICATED');
    const res = await listener.get(`${BASE}/tracks`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 9, page: 1, limit: 50 });
    expect(res.body.items[0]).toEqual(
      expect.objectContaining({
        id: expect.any(Number),
        title: expect.any(String),
        hasCover: expect.any(Boolean),
        status: 'ok',
      }),
    );
  });

  it('searches every word over title, artist and album, ignoring case and accents', async () => {
    expect(titles(await listener.get(`${BASE}/tracks`).query({ q: 'new order' }))).toEqual([
      'Blue Monday',
      'Age of Consent',
    ]);
    expect(titles(await listener.get(`${BASE}/tracks`).query({ q: 'CORRUPTION monday' }))).toEqual([
      'Blue Monday',
    ]);
    expect(titles(await listener.get(`${BASE}/tracks`).query({ q: 'beyonce deja' }))).toEqual([
      'Déjà Vu',
    ]);
    expect(titles(await listener.get(`${BASE}/tracks`).query({ q: 'BEYONCÉ' }))).toEqual([
      'Déjà Vu',
    ]);
    expect(titles(await listener.get(`${BASE}/tracks`).query({ q: '東京' }))).toEqual(['東京']);
    expect(titles(await listener.get(`${BASE}/tracks`).query({ q: '坂本' }))).toEqual(['東京']);
    expect(titles(await listener.get(`${BASE}/tracks`).query({ q: 'lo' }))).toEqual(
      expect.arrayContaining([
        'Love Will Tear Us Apart',
        "100% Pure_Love 'Quoted'; DROP TABLE tracks; --",
      ]),
    );
    expect((await listener.get(`${BASE}/tracks`).query({ q: 'zzzz' })).body).toMatchObject({
      items: [],
      total: 0,
    });
  });

  it('treats SQL-looking and wildcard input as plain text', async () => {
    for (const q of ["'; DROP TABLE tracks; --", '100%', 'pure_love', "'quoted'"]) {
      const res = await listener.get(`${BASE}/tracks`).query({ q });
      expect(res.status).toBe(200);
      expect(titles(res)).toEqual(["100% Pure_Love 'Quoted'; DROP TABLE tracks; --"]);
    }
    const expected: Array<[string, number]> = [
      ['%', 1],
      ['_', 1],
      ['%%', 0],
      ["' OR '1'='1", 0],
      ['\\', 0],
      ['"', 0],
      ['😀', 0],
      // A control character only separates words: nothing is left to search for.
      ['\u0000', 9],
    ];
    for (const [q, total] of expected) {
      const res = await listener.get(`${BASE}/tracks`).query({ q });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(total);
    }
    expect(titles(await listener.get(`${BASE}/tracks`).query({ q: '%' }))).toEqual([
      "100% Pure_Love 'Quoted'; DROP TABLE tracks; --",
    ]);
    // The table is still there.
    expect((await listener.get(`${BASE}/tracks`)).body.total).toBe(9);
  });

  it('handles huge input: long searches find nothing, too long ones are a 400', async () => {
    const long = 'x'.repeat(500);
    expect((await listener.get(`${BASE}/tracks`).query({ q: long })).body.total).toBe(0);
    expectError(
      await listener.get(`${BASE}/tracks`).query({ q: 'x'.repeat(501) }),
      400,
      'API_VALIDATION',
    );
    expectError(
      await listener.get(`${BASE}/tracks`).query({ artist: '東'.repeat(1000) }),
      400,
      'API_VALIDATION',
    );
    expectError(await listener.get(`${BASE}/tracks?q=a&q=b`), 400, 'API_VALIDATION');
  });

  it('filters by artist, album and genre (whole value, any case), and by status', async () => {
    expect(titles(await listener.get(`${BASE}/tracks`).query({ artist: 'new order' }))).toEqual([
      'Blue Monday',
      'Age of Consent',
    ]);
    expect(titles(await listener.get(`${BASE}/tracks`).query({ artist: 'New' }))).toEqual([]);
    expect(titles(await listener.get(`${BASE}/tracks`).query({ album: 'SUBSTANCE' }))).toEqual([
      'Love Will Tear Us Apart',
    ]);
    expect(
      titles(await listener.get(`${BASE}/tracks`).query({ genre: 'synth-pop', q: 'age' })),
    ).toEqual(['Age of Consent']);
    expect(titles(await listener.get(`${BASE}/tracks`).query({ status: 'invalid' }))).toEqual([
      'Broken File',
    ]);
    expect((await listener.get(`${BASE}/tracks`).query({ status: 'all' })).body.total).toBe(11);
    expect(
      (await listener.get(`${BASE}/tracks`).query({ status: 'missing' })).body.items[0],
    ).toMatchObject({
      title: 'Gone',
      status: 'missing',
    });
  });

  it('sorts and paginates with the total', async () => {
    const byYear = await listener
      .get(`${BASE}/tracks`)
      .query({ sort: 'year', order: 'desc', limit: 3 });
    expect(byYear.body).toMatchObject({ total: 9, page: 1, limit: 3 });
    expect(titles(byYear)).toEqual([
      'Déjà Vu',
      "100% Pure_Love 'Quoted'; DROP TABLE tracks; --",
      'Love Will Tear Us Apart',
    ]);
    const page2 = await listener
      .get(`${BASE}/tracks`)
      .query({ sort: 'year', order: 'desc', limit: 3, page: 2 });
    expect(titles(page2)).toEqual(['Blue Monday', 'Age of Consent', '東京']);
    const byTitle = titles(
      await listener.get(`${BASE}/tracks`).query({ sort: 'title', q: 'new order' }),
    );
    expect(byTitle).toEqual(['Age of Consent', 'Blue Monday']);
    const byAlbum = titles(
      await listener
        .get(`${BASE}/tracks`)
        .query({ sort: 'album', artist: 'new order', order: 'asc' }),
    );
    expect(byAlbum).toEqual(['Blue Monday', 'Age of Consent']);
    const byDuration = titles(
      await listener.get(`${BASE}/tracks`).query({ sort: 'duration', order: 'desc', limit: 1 }),
    );
    expect(byDuration).toEqual(['Blue Monday']);
    const beyond = await listener.get(`${BASE}/tracks`).query({ page: 99 });
    expect(beyond.body).toMatchObject({ items: [], total: 9, page: 99 });
    for (const bad of [
      { page: 0 },
      { limit: 0 },
      { limit: 201 },
      { page: 'abc' },
      { sort: 'bogus' },
      { order: 'up' },
      { status: 'x' },
    ]) {
      expectError(await listener.get(`${BASE}/tracks`).query(bad), 400, 'API_VALIDATION');
    }
  });

  it('sees tracks the scanner adds (a library.changed event or a later check)', async () => {
    const [added] = await insertTracks(t.db, [
      track({ title: 'Fresh Arrival', artist: 'Newcomer' }),
    ]);
    await t.bus.publish('library.changed', { added: 1, updated: 0, removed: 0, invalid: 0 });
    const res = await listener.get(`${BASE}/tracks`).query({ q: 'fresh arrival' });
    expect(titles(res)).toEqual(['Fresh Arrival']);
    await t.db.db
      .updateTable('tracks')
      .set({ status: 'missing', updated_at: new Date(Date.now() + 1000).toISOString() })
      .where('id', '=', (added as Track).id)
      .execute();
    expect((await listener.get(`${BASE}/tracks`).query({ q: 'fresh arrival' })).body.total).toBe(0);
  });

  it('GET /tracks/:id: one track, 404 for an unknown id, 400 for a malformed one', async () => {
    const first = rows[0] as Track;
    const res = await listener.get(`${BASE}/tracks/${first.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: first.id,
      title: 'Blue Monday',
      artist: 'New Order',
      year: 1983,
      trackNo: 1,
      coverUrl: null,
    });
    expectError(await listener.get(`${BASE}/tracks/999999`), 404, 'API_TRACK_NOT_FOUND');
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999', "1'%20or%201=1"]) {
      expectError(await listener.get(`${BASE}/tracks/${bad}`), 400, 'API_VALIDATION');
    }
    expectError(await request(t.app).get(`${BASE}/tracks/${first.id}`), 401, 'API_UNAUTHENTICATED');
  });

  it('shows the analysis in the detail and the list, pending until the worker writes it', async () => {
    const age = rows[1] as Track;
    const pending = await listener.get(`${BASE}/tracks/${age.id}`);
    expect(pending.body.analysis).toEqual({
      status: 'pending',
      loudness: null,
      loudnessRange: null,
      truePeak: null,
      cueIn: null,
      cueOut: null,
      fadePoint: null,
      replayGain: null,
      error: null,
      analyzedAt: null,
    });
    // As the analysis worker writes its results: no library change event, updated_at kept.
    const analyzedAt = '2026-11-24T12:00:00.000Z';
    await t.db.db
      .updateTable('tracks')
      .set({
        analysis_status: 'done',
        loudness: -9.5,
        loudness_range: 6.2,
        true_peak: 0.4,
        cue_in: 0.25,
        cue_out: 312.5,
        fade_point: 306,
        replay_gain: -8.1,
        analyzed_at: analyzedAt,
      })
      .where('id', '=', age.id)
      .execute();
    const expected = {
      status: 'done',
      loudness: -9.5,
      loudnessRange: 6.2,
      truePeak: 0.4,
      cueIn: 0.25,
      cueOut: 312.5,
      fadePoint: 306,
      replayGain: -8.1,
      error: null,
      analyzedAt,
    };
    expect((await listener.get(`${BASE}/tracks/${age.id}`)).body.analysis).toEqual(expected);
    const list = await listener.get(`${BASE}/tracks`).query({ q: 'age of consent' });
    expect(list.body.items[0].analysis).toEqual(expected);

    const broken = rows.find((row) => row.title === 'Broken File') as Track;
    await t.db.db
      .updateTable('tracks')
      .set({
        analysis_status: 'failed',
        analysis_error: 'no audio stream',
        analyzed_at: '2026-11-24T12:00:01.000Z',
      })
      .where('id', '=', broken.id)
      .execute();
    const failed = await listener.get(`${BASE}/tracks`).query({ status: 'invalid' });
    expect(failed.body.items[0].analysis).toMatchObject({
      status: 'failed',
      error: 'no audio stream',
      loudness: null,
    });
  });

  it('GET /tracks/:id/cover: the embedded picture, or 404', async () => {
    const res = await listener.get(`${BASE}/tracks/${withCover.id}/cover`).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(Buffer.isBuffer(res.body) && res.body.subarray(1, 4).toString()).toBe('PNG');
    const etag = res.headers.etag as string;
    expect(etag).toBeDefined();
    const again = await listener
      .get(`${BASE}/tracks/${withCover.id}/cover`)
      .set('If-None-Match', etag);
    expect(again.status).toBe(304);

    const plain = rows.find((row) => row.title === 'Plain') as Track;
    expectError(await listener.get(`${BASE}/tracks/${plain.id}/cover`), 404, 'API_COVER_NOT_FOUND');
    const missing = rows.find((row) => row.title === 'Gone') as Track;
    expectError(
      await listener.get(`${BASE}/tracks/${missing.id}/cover`),
      404,
      'API_COVER_NOT_FOUND',
    );
    const outside = rows.find((row) => row.title === 'Outside') as Track;
    expectError(
      await listener.get(`${BASE}/tracks/${outside.id}/cover`),
      404,
      'API_COVER_NOT_FOUND',
    );
    expectError(await listener.get(`${BASE}/tracks/999999/cover`), 404, 'API_TRACK_NOT_FOUND');
    expectError(await listener.get(`${BASE}/tracks/x/cover`), 400, 'API_VALIDATION');
    expectError(
      await request(t.app).get(`${BASE}/tracks/${withCover.id}/cover`),
      401,
      'API_UNAUTHENTICATED',
    );
  });

  it('GET /artists and /albums, with counts', async () => {
    const artists = await listener.get(`${BASE}/artists`);
    expect(artists.status).toBe(200);
    expect(artists.body.items).toEqual(
      expect.arrayContaining([
        { name: 'New Order', tracks: 2, albums: 1 },
        { name: 'Joy Division', tracks: 1, albums: 1 },
        { name: 'Art', tracks: 2, albums: 1 },
      ]),
    );
    // Tracks that cannot be played are not counted.
    expect(artists.body.items.find((a: { name: string }) => a.name === 'Nobody')).toBeUndefined();
    expect((await listener.get(`${BASE}/artists`).query({ q: 'order' })).body.items).toEqual([
      { name: 'New Order', tracks: 2, albums: 1 },
    ]);
    const albums = await listener.get(`${BASE}/albums`).query({ artist: 'new order' });
    expect(albums.body).toMatchObject({
      total: 1,
      items: [
        {
          name: 'Power, Corruption & Lies',
          artist: 'New Order',
          tracks: 2,
          year: 1983,
          duration: 763,
        },
      ],
    });
    expect(
      (await listener.get(`${BASE}/albums`).query({ q: 'tokyo' })).body.items[0],
    ).toMatchObject({ name: 'Tokyo Songs', artist: '坂本龍一' });
    expectError(await listener.get(`${BASE}/albums`).query({ limit: 1000 }), 400, 'API_VALIDATION');
    expectError(await request(t.app).get(`${BASE}/artists`), 401);
    expectError(await request(t.app).get(`${BASE}/albums`), 401);
  });
});
