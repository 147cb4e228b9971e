import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@radio/core/testing';
import { TestStation } from './helpers/station.ts';
import { firstHeard, hear, type ToneFile, writeTone } from './helpers/tones.ts';

jest.setTimeout(360_000);

const ROTATION_HZ = [440, 550, 660, 770];
const MORNING_HZ = 1000;
const EVENING_HZ = 1500;
const JINGLE_HZ = 2200;
const ALL_HZ = [...ROTATION_HZ, MORNING_HZ, EVENING_HZ, JINGLE_HZ];
const MINUTE = 60_000;
/** The least time between the schedule's writing and its first span (the real clock's minutes). */
const LEAD_MS = 20_000;
/** How far a start as heard may be from its planned time (the plan decides at the minute). */
const JITTER_MS = 500;

interface HistoryRow {
  id: number;
  track_id: number | null;
  title: string;
  started_at: string;
  ended_at: string | null;
  jingle: number;
  playlist_id: number | null;
}

const hhmm = (at: number): string => new Date(at).toISOString().slice(11, 16);
const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

/**
 * Scheduled playlists on the real clock (STATION_TIMEZONE UTC), one minute after another:
 * `Morning` interrupts the rotation at minute M, `Evening` waits for the track in progress at
 * M+1, and the station ID (hourly_at, a jingle) plays in the first slot of minute M+2.
 */
describe('scheduled playlists on time at the listener', () => {
  let dir: string;
  let station: TestStation;
  const playlists = { morning: 0, evening: 0, ids: 0 };
  let start = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'programme-schedule-'));
    const music = join(dir, 'music');
    const files: ToneFile[] = ROTATION_HZ.map((hz, i) => ({
      path: join(music, `rotation-${i}.flac`),
      hz,
      seconds: 20,
      title: `Song ${i}`,
      artist: `Artist ${i}`,
    }));
    files.push(
      {
        path: join(music, 'morning.flac'),
        hz: MORNING_HZ,
        seconds: 8,
        title: 'Morning',
        artist: 'AM',
      },
      {
        path: join(music, 'evening.flac'),
        hz: EVENING_HZ,
        seconds: 8,
        title: 'Evening',
        artist: 'PM',
      },
      {
        path: join(music, 'id.flac'),
        hz: JINGLE_HZ,
        seconds: 2,
        title: 'Station ID',
        artist: 'Radio',
      },
    );
    await Promise.all(files.map(writeTone));
    station = await TestStation.start({
      crossfadeSeconds: 1,
      reuse: { dir, fixtures: { dir: music, valid: [], corrupt: '', empty: '' } },
      scheduler: { artistSeparationMinutes: 0, trackSeparationMinutes: 0 },
    });
    await waitFor(
      'every tone analysed',
      async () => {
        const state = await station.bus.getState('library-analysis');
        return state?.pending === 0 && state.analysed === files.length;
      },
      60_000,
    );
    start = Math.ceil((Date.now() + LEAD_MS) / MINUTE) * MINUTE;
    await programme();
  });

  afterAll(async () => {
    await station?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function programme(): Promise<void> {
    const db = station.db.db;
    const owner = await db
      .insertInto('users')
      .values({ username: 'owner', password_hash: 'x', role: 'admin' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tracks = await db.selectFrom('tracks').select(['id', 'path']).execute();
    const id = (path: string) => tracks.find((t) => t.path === path)?.id as number;
    const playlist = async (values: Record<string, unknown>, ...paths: string[]) => {
      const row = await db
        .insertInto('playlists')
        .values({ owner_id: owner.id, name: 'x', on_air: 1, ...values })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('playlist_items')
        .values(
          paths.map((path, position) => ({ playlist_id: row.id, track_id: id(path), position })),
        )
        .execute();
      return row.id;
    };
    // The default rotation: without it the whole library plays, scheduled tones included, and a
    // Morning picked by the rotation just before its span would be heard early.
    await playlist({ name: 'Rotation' }, ...ROTATION_HZ.map((_, i) => `rotation-${i}.flac`));
    playlists.morning = await playlist({ name: 'Morning' }, 'morning.flac');
    playlists.evening = await playlist({ name: 'Evening' }, 'evening.flac');
    playlists.ids = await playlist(
      {
        name: 'IDs',
        kind: 'hourly_at',
        interval: new Date(start + 2 * MINUTE).getUTCMinutes(),
        jingle: 1,
      },
      'id.flac',
    );
    const span = (from: number, mode: 'interrupt' | 'after_track', playlistId: number) =>
      db
        .insertInto('schedules')
        .values({
          playlist_id: playlistId,
          days: 127,
          start_time: hhmm(from),
          end_time: hhmm(from + MINUTE),
          priority: 1,
          start_mode: mode,
        })
        .execute();
    await span(start, 'interrupt', playlists.morning);
    await span(start + MINUTE, 'after_track', playlists.evening);
    await station.bus.request('schedule.reload', {});
  }

  async function history(): Promise<HistoryRow[]> {
    return station.db.db
      .selectFrom('play_history')
      .select(['id', 'track_id', 'title', 'started_at', 'ended_at', 'jingle', 'playlist_id'])
      .orderBy('id')
      .execute();
  }

  const startOf = (row: HistoryRow): number => Date.parse(row.started_at);

  it('interrupt: the scheduled playlist is heard at its start time, ±1.5 s', async () => {
    const timeline = await station.bus.request('schedule.timeline', { hours: 1 });
    const planned = timeline.entries.find((e) => e.playlist?.id === playlists.morning);
    expect(planned).toMatchObject({ at: start, interrupts: true, source: 'scheduled' });
    await sleepUntil(start - 6000);
    const audio = await hear(`${station.streamUrl}/radio.mp3`, 11_000, dir, 'interrupt');
    const heard = firstHeard(audio, MORNING_HZ, ALL_HZ, start - 5000);
    const rows = await history();
    process.stderr.write(
      `interrupt: heard ${heard === null ? 'never' : heard - start} ms from its time\n`,
    );
    if (heard === null || Math.abs(heard - start) > 1500) {
      // What the station did and said around the cut, to tell a late plan from a late cut.
      const around = rows.filter((row) => Math.abs(startOf(row) - start) < 60_000);
      process.stderr.write(`${JSON.stringify(around)}\n${station.warnings.join('\n')}\n`);
    }
    expect(heard).not.toBeNull();
    expect(Math.abs((heard as number) - start)).toBeLessThanOrEqual(1500);
    const first = rows.find((row) => row.playlist_id === playlists.morning) as HistoryRow;
    expect(Math.abs(startOf(first) - start)).toBeLessThanOrEqual(1500);
  });

  it('after_track: the scheduled playlist starts when the track in progress ends', async () => {
    const from = start + MINUTE;
    const evening = await waitFor(
      'the evening playlist on air',
      async () => (await history()).find((row) => row.playlist_id === playlists.evening),
      MINUTE + 30_000,
      250,
    );
    const rows = await history();
    const before = rows[rows.findIndex((row) => row.id === evening.id) - 1] as HistoryRow;
    process.stderr.write(
      `after_track: span ${hhmm(from)}, track before ${before.title} from ${startOf(before) - from} ms, evening from ${startOf(evening) - from} ms\n`,
    );
    // Planned before the span (as heard, a start may come a few ms after its planned time).
    expect(startOf(before)).toBeLessThan(from + JITTER_MS);
    expect(startOf(evening)).toBeGreaterThanOrEqual(from - 200);
    // The track in progress played to its end: 8 s less the 1 s crossfade (or all of a 20 s one).
    const played = startOf(evening) - startOf(before);
    expect(played).toBeGreaterThanOrEqual(before.title === 'Morning' ? 6500 : 18_000);
  });

  it('hourly_at: the station ID plays in the first slot of its minute, as a jingle', async () => {
    const minute = start + 2 * MINUTE;
    const id = await waitFor(
      'the station ID on air',
      // Its minute this hour (an earlier hour's, still due at the reload, may have played).
      async () =>
        (await history()).find(
          (row) => row.playlist_id === playlists.ids && startOf(row) > minute - MINUTE / 2,
        ),
      MINUTE + 30_000,
      250,
    );
    const rows = await history();
    const before = rows[rows.findIndex((row) => row.id === id.id) - 1] as HistoryRow;
    process.stderr.write(`hourly_at: ID from ${startOf(id) - minute} ms after its minute\n`);
    expect(id.jingle).toBe(1);
    expect(startOf(before)).toBeLessThan(minute + JITTER_MS);
    expect(startOf(id)).toBeGreaterThanOrEqual(minute - 200);
    expect(startOf(id) - minute).toBeLessThan(9000);
  });
});
