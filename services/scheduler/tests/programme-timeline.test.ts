import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { EventMessage, SongRequestUpdate, TimelineEntry } from '@radio/core';
import { waitFor } from '@radio/core/testing';
import { TestStation } from './helpers/station.ts';
import { type ToneFile, writeTone } from './helpers/tones.ts';

jest.setTimeout(240_000);

const SONGS = 8;
const SONG_SECONDS = 3;
const JINGLE_SECONDS = 1;
const PREDICTED = 20;

interface HistoryRow {
  id: number;
  track_id: number | null;
  started_at: string;
  jingle: number;
  playlist_id: number | null;
  song_request_id: number | null;
}

/**
 * The programme on a real station: a rotation playlist of short tones and a jingle every three
 * songs. What the timeline predicts is what the history records; a listener's request plays in
 * the first slot after its delay and its status reaches the bus.
 */
describe('programme timeline on the real station', () => {
  let dir: string;
  let station: TestStation;
  let ownerId: number;
  let jinglePlaylist: number;
  const events: EventMessage[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'programme-timeline-'));
    const music = join(dir, 'music');
    const files: ToneFile[] = [];
    for (let n = 1; n <= SONGS; n++) {
      files.push({
        path: join(music, `song-${n}.flac`),
        hz: 400 + 40 * n,
        seconds: SONG_SECONDS + (n % 3) * 0.25,
        title: `Song ${n}`,
        artist: `Artist ${n}`,
      });
    }
    files.push({
      path: join(music, 'jingle.flac'),
      hz: 2000,
      seconds: JINGLE_SECONDS,
      title: 'Station ID',
      artist: 'Radio',
    });
    await Promise.all(files.map(writeTone));
    station = await TestStation.start({
      crossfadeSeconds: 1,
      reuse: { dir, fixtures: { dir: music, valid: [], corrupt: '', empty: '' } },
      scheduler: { artistSeparationMinutes: 0, trackSeparationMinutes: 0 },
    });
    station.bus.onEvent((event) => {
      events.push(event);
    });
    await waitFor(
      'every tone analysed',
      async () => {
        const state = await station.bus.getState('library-analysis');
        return state?.pending === 0 && state.analysed === SONGS + 1;
      },
      60_000,
    );
    await programme();
  });

  afterAll(async () => {
    await station?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** The songs on air as a rotation playlist, the jingle every three songs; then a reload. */
  async function programme(): Promise<void> {
    const db = station.db.db;
    ownerId = (
      await db
        .insertInto('users')
        .values({ username: 'owner', password_hash: 'x', role: 'admin' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const tracks = await db.selectFrom('tracks').select(['id', 'path']).orderBy('path').execute();
    const songs = tracks.filter((t) => t.path.startsWith('song-'));
    const jingle = tracks.find((t) => t.path === 'jingle.flac');
    const insert = async (values: Record<string, unknown>, ids: number[]) => {
      const row = await db
        .insertInto('playlists')
        .values({ owner_id: ownerId, name: 'x', on_air: 1, ...values })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [position, trackId] of ids.entries()) {
        await db
          .insertInto('playlist_items')
          .values({ playlist_id: row.id, track_id: trackId, position })
          .execute();
      }
      return row.id;
    };
    await insert(
      { name: 'Music' },
      songs.map((t) => t.id),
    );
    jinglePlaylist = await insert(
      { name: 'IDs', kind: 'every_n_songs', interval: 3, jingle: 1, play_order: 'sequential' },
      jingle ? [jingle.id] : [],
    );
    const before = (await station.bus.getState('timeline'))?.revision ?? 0;
    const { revision } = await station.bus.request('schedule.reload', {});
    expect(revision).toBeGreaterThan(before);
  }

  async function historySince(id: number): Promise<HistoryRow[]> {
    return station.db.db
      .selectFrom('play_history')
      .select(['id', 'track_id', 'started_at', 'jingle', 'playlist_id', 'song_request_id'])
      .where('id', '>', id)
      .orderBy('id')
      .execute();
  }

  const lastHistoryId = async (): Promise<number> =>
    (
      await station.db.db
        .selectFrom('play_history')
        .select('id')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst()
    )?.id ?? 0;

  it('plays the next 20 tracks as the timeline predicted, each within 1 s', async () => {
    // A track boundary first, so the plan is made from a track that started under it.
    const revision = (await station.bus.getState('timeline'))?.revision ?? 0;
    await waitFor('a new plan', async () => {
      const timeline = await station.bus.getState('timeline');
      return (timeline?.revision ?? 0) > revision && timeline?.cause === 'track';
    });
    const since = await lastHistoryId();
    const timeline = await station.bus.request('schedule.timeline', { hours: 1 });
    const predicted = timeline.entries.filter((e) => e.track).slice(0, PREDICTED);
    expect(predicted).toHaveLength(PREDICTED);
    expect(predicted.some((e) => e.jingle && e.source === 'jingle')).toBe(true);
    const first = predicted[0] as TimelineEntry;
    const rows = await waitFor(
      'the predicted tracks played',
      async () => {
        const played = (await historySince(since)).filter(
          (row) => Date.parse(row.started_at) > first.at - 500,
        );
        return played.length >= PREDICTED ? played.slice(0, PREDICTED) : undefined;
      },
      120_000,
      250,
    );
    const report = predicted.map((entry, i) => {
      const row = rows[i] as HistoryRow;
      return `${entry.track?.title} ${row.track_id === entry.track?.id ? '=' : `≠ ${row.track_id}`} ${Date.parse(row.started_at) - entry.at} ms`;
    });
    process.stderr.write(`timeline vs history:\n${report.join('\n')}\n`);
    for (const [i, entry] of predicted.entries()) {
      const row = rows[i] as HistoryRow;
      expect(row.track_id).toBe(entry.track?.id);
      expect(Math.abs(Date.parse(row.started_at) - entry.at)).toBeLessThanOrEqual(1000);
      expect(row.jingle).toBe(entry.jingle ? 1 : 0);
      if (entry.jingle) expect(row.playlist_id).toBe(jinglePlaylist);
    }
  });

  it('lists the next ten on the control port in station time', async () => {
    const reply = await station.command('schedule.timeline');
    const lines = reply.split('\r\n');
    expect(lines).toHaveLength(10);
    for (const line of lines) {
      expect(line).toMatch(
        /^\d\d:\d\d:\d\d {2}(rotation|jingle|queue|request) {2}.+ - .+ {2}\(.+\)$/,
      );
    }
    const help = await station.command('help schedule.timeline');
    expect(help).toMatch(/next 10 planned entries/);
  });

  it('plays a request in the first slot after its delay and says so on the bus', async () => {
    const db = station.db.db;
    const listener = await db
      .insertInto('users')
      .values({ username: 'ana', password_hash: 'x', role: 'listener' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const track = await db
      .selectFrom('tracks')
      .select('id')
      .where('path', '=', 'song-5.flac')
      .executeTakeFirstOrThrow();
    const notBefore = Date.now() + 6000;
    const request = await db
      .insertInto('song_requests')
      .values({
        user_id: listener.id,
        track_id: track.id,
        requested_at: new Date().toISOString(),
        not_before: new Date(notBefore).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const since = await lastHistoryId();
    await station.bus.request('schedule.reload', {});
    const updates = (): SongRequestUpdate[] =>
      events.flatMap((e) =>
        e.type === 'requests.updated' ? e.payload.requests.filter((r) => r.id === request.id) : [],
      );
    const played = await waitFor(
      'the request played',
      () => updates().find((u) => u.status === 'played'),
      60_000,
    );
    const planned = updates().find((u) => u.status === 'pending' && u.plannedAt !== null);
    expect(planned?.plannedAt).toBeGreaterThanOrEqual(notBefore - 1000);
    expect(played).toMatchObject({
      userId: listener.id,
      trackId: track.id,
      playedAt: expect.any(Number),
    });
    const rows = await historySince(since);
    const index = rows.findIndex((row) => row.song_request_id === request.id);
    expect(index).toBeGreaterThanOrEqual(0);
    const row = rows[index] as HistoryRow;
    expect(row.track_id).toBe(track.id);
    expect(Date.parse(row.started_at)).toBeGreaterThanOrEqual(notBefore);
    expect(played.playedAt).toBe(Date.parse(row.started_at));
    // The first slot after its delay: nothing but a due jingle started between.
    const between = rows
      .slice(0, index)
      .filter((r) => Date.parse(r.started_at) >= notBefore && r.jingle === 0);
    expect(between).toEqual([]);
    const stored = await db
      .selectFrom('song_requests')
      .select(['status', 'played_at'])
      .where('id', '=', request.id)
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe('played');
  });
});
