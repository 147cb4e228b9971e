/**
 * The audience reports over a known scenario of sessions (five countries, ten user agents,
 * every client family, overlaps worked out by hand), on both dialects: the per-minute series,
 * peak, unique listeners, hours, AQH, cume and the breakdowns; the per-play counts and the CSV;
 * and a period older than the kept sessions, read from the hourly and daily sums.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { silentLogger } from '@radio/core';
import { AudienceRepository } from '../src/audience/audience.repository.ts';
import { HyperLogLog } from '../src/audience/hyperloglog.ts';
import { AudienceRollup } from '../src/audience/rollup.ts';
import { ReportsRepository } from '../src/reports/reports.repository.ts';
import { createReports } from '../src/reports/reports.ts';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import { insertPlays, insertSessions, type SessionRow } from './helpers/listener-sessions.ts';
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

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
// Six hours ago, on an hour: inside the per-minute window, quarter hours aligned.
const T0 = Math.floor((Date.now() - 6 * HOUR) / HOUR) * HOUR;
const at = (minutes: number) => T0 + minutes * MIN;
const iso = (ms: number) => new Date(ms).toISOString();

const UA = {
  chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36',
  firefox: 'Mozilla/5.0 (Windows NT 10.0; rv:133.0) Gecko/20100101 Firefox/133.0',
  safari: 'Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 Version/18.1 Safari/605.1.15',
  vlc: 'VLC/3.0.21 LibVLC/3.0.21',
  mpv: 'mpv 0.39.0',
  lavf: 'Lavf/61.7.100',
  radioApp: 'RadioDroid2/0.86 (Android 14)',
  tuneIn: 'TuneIn Radio/32.1 (iPhone; iOS 18.1)',
  curl: 'curl/8.11.0',
  unknown: 'SomethingElse/1.0',
};

// Minutes from T0. Listener L1 comes back; the bot's address is not kept (counts as itself).
const HOUR_SESSIONS: SessionRow[] = [
  // s1
  {
    mount: '/radio.mp3',
    start: at(0),
    end: at(30),
    country: 'DE',
    client: 'browser',
    listener: 'L1',
    userAgent: UA.chrome,
  },
  // s2
  {
    mount: '/radio.mp3',
    start: at(10),
    end: at(20),
    country: 'FR',
    client: 'player',
    listener: 'L2',
    userAgent: UA.vlc,
  },
  // s3
  {
    mount: '/radio.aac',
    start: at(5),
    end: at(50),
    country: 'US',
    client: 'app',
    listener: 'L3',
    userAgent: UA.radioApp,
  },
  // s4: L1 again
  {
    mount: '/radio.mp3',
    start: at(40),
    end: at(60),
    country: 'DE',
    client: 'browser',
    listener: 'L1',
    userAgent: UA.firefox,
  },
  // s5
  {
    mount: '/radio.mp3',
    start: at(12),
    end: at(13),
    country: 'BR',
    client: 'bot',
    listener: null,
    userAgent: UA.curl,
  },
  // s6
  {
    mount: '/radio.aac',
    start: at(0.5),
    end: at(2),
    country: 'JP',
    client: 'other',
    listener: 'L5',
    userAgent: UA.unknown,
  },
  // s7: runs past the hour; country unknown
  {
    mount: '/radio.mp3',
    start: at(55),
    end: at(65),
    country: null,
    client: 'player',
    listener: 'L6',
    userAgent: UA.mpv,
  },
  // s8: began before the hour
  {
    mount: '/radio-low.mp3',
    start: at(-10),
    end: at(3),
    country: 'DE',
    client: 'browser',
    listener: 'L7',
    userAgent: UA.safari,
  },
];
const OTHER_SESSIONS: SessionRow[] = [
  // After the hour: in no window of a report that ends with it.
  {
    mount: '/radio.aac',
    start: at(70),
    end: at(80),
    country: 'US',
    client: 'app',
    listener: 'L8',
    userAgent: UA.tuneIn,
  },
  {
    mount: '/radio.mp3',
    start: at(90),
    end: at(100),
    country: 'FR',
    client: 'player',
    listener: 'L2',
    userAgent: UA.lavf,
  },
  // Three and ten days before: in the week's and the month's windows.
  {
    mount: '/radio.mp3',
    start: T0 - 3 * DAY,
    end: T0 - 3 * DAY + 20 * MIN,
    country: 'DE',
    client: 'browser',
    listener: 'L9',
    userAgent: UA.chrome,
  },
  {
    mount: '/radio.mp3',
    start: T0 - 10 * DAY,
    end: T0 - 10 * DAY + 5 * MIN,
    country: 'BR',
    client: 'app',
    listener: 'L10',
    userAgent: UA.tuneIn,
  },
];

/** The overlap count of each minute, worked out from the sessions one by one. */
function expectedSeries(from: number, minutes: number): number[] {
  return Array.from({ length: minutes }, (_, k) => {
    const b = from + k * MIN;
    return HOUR_SESSIONS.filter((s) => s.start < b + MIN && s.end > b).length;
  });
}

// An old day with no sessions kept, only its sums (out of the month before the hour).
const OLD_DAY = Math.floor((T0 - 40 * DAY) / DAY) * DAY;
const H = OLD_DAY + 10 * HOUR;

describe.each(ROUTE_SETUPS)('reports ($dialect, sessions in $sessions)', (setup) => {
  let t: TestApi;
  let admin: Agent;
  let dj: Agent;
  let listener: Agent;

  beforeAll(async () => {
    t = await startTestApi(setup);
    ({ admin, dj, listener } = await loginAll(t));
    await insertSessions(t.db, [...HOUR_SESSIONS, ...OTHER_SESSIONS]);
    const [first] = await insertTracks(t.db, [
      // The ISRC as a scan stores it from the file's tags (TSRC / ISRC): the CSV's isrc column.
      track({
        title: 'Song, "One"',
        artist: 'Band',
        album: 'Album, Vol. 1',
        duration: 241,
        isrc: 'USRC17607839',
      }),
    ]);
    await insertPlays(t.db, [
      {
        trackId: first?.id ?? null,
        title: 'Song, "One"',
        artist: 'Band',
        start: at(8),
        end: at(12),
      },
      { title: 'Station ID', artist: null, start: at(12), end: at(12.5), jingle: true },
      { title: 'Two', artist: 'Solo\nArtist', start: at(12.5), end: at(25) },
      { title: 'Three', artist: 'Trio', start: at(55), end: at(60) },
      // Before any kept session: its listeners are not known.
      { title: 'Old', artist: 'Trio', start: T0 - 30 * DAY, end: T0 - 30 * DAY + 3 * MIN },
    ]);
    await t.db.db
      .insertInto('listener_hourly')
      .values([
        {
          hour_ms: H,
          mount: '/radio.mp3',
          country: 'DE',
          client: 'browser',
          sessions: 10,
          listening_ms: 5 * HOUR,
          peak: 4,
          present: 10,
          quarter_listeners: 20,
          started_duration_ms: 5 * HOUR,
          present_duration_ms: 5 * HOUR,
        },
        {
          hour_ms: H,
          mount: '/radio.mp3',
          country: '',
          client: 'player',
          sessions: 2,
          listening_ms: HOUR,
          peak: 1,
          present: 2,
          quarter_listeners: 4,
          started_duration_ms: HOUR,
          present_duration_ms: HOUR,
        },
        {
          hour_ms: H + HOUR,
          mount: '/radio.aac',
          country: 'FR',
          client: 'app',
          sessions: 3,
          listening_ms: 1.5 * HOUR,
          peak: 2,
          present: 3,
          quarter_listeners: 6,
          started_duration_ms: 1.5 * HOUR,
          present_duration_ms: 1.5 * HOUR,
        },
      ])
      .execute();
    // The listeners of those hours: nine from Germany, two unknown (one of them also among
    // the nine), three from France on the other mount.
    const sketch = (...listeners: string[]) => {
      const hll = new HyperLogLog();
      for (const listener of listeners) hll.add(listener);
      return Buffer.from(hll.toBytes());
    };
    const german = Array.from({ length: 9 }, (_, i) => `de-${i}`);
    await t.db.db
      .insertInto('listener_sketches')
      .values([
        {
          span: 'hour',
          start_ms: H,
          mount: '/radio.mp3',
          country: 'DE',
          client: 'browser',
          sketch: sketch(...german),
        },
        {
          span: 'hour',
          start_ms: H,
          mount: '/radio.mp3',
          country: '',
          client: 'player',
          sketch: sketch('de-0', 'x'),
        },
        {
          span: 'hour',
          start_ms: H + HOUR,
          mount: '/radio.aac',
          country: 'FR',
          client: 'app',
          sketch: sketch('fr-0', 'fr-1', 'fr-2'),
        },
      ])
      .execute();
  });
  afterAll(() => t.close());

  const hourQuery = `from=${iso(T0)}&to=${iso(at(60))}`;

  it('gives the per-minute series, peak, hours, AQH, cume and unique listeners', async () => {
    const res = await dj.get(`${BASE}/reports/listeners?${hourQuery}`).expect(200);
    const report = res.body;
    expect(report.step).toBe('minute');
    expect(report.from).toBe(iso(T0));
    expect(report.to).toBe(iso(at(60)));
    const values = report.series.map((p: { listeners: number }) => p.listeners);
    expect(values).toEqual(expectedSeries(T0, 60));
    expect(report.series[12]).toEqual({ at: iso(at(12)), listeners: 4 });
    expect(values.slice(0, 3)).toEqual([3, 3, 2]);
    expect(report.peak).toEqual({ at: iso(at(12)), listeners: 4 });
    expect(report.sessions).toBe(8);
    // 30 + 10 + 45 + 20 + 1 + 1.5 + 5 + 3 minutes inside the hour.
    expect(report.listeningHours).toBe(1.925);
    // 130.5 minutes over 8 sessions.
    expect(report.averageSessionSeconds).toBe(978.75);
    // Quarter hours with ≥ 5 minutes: 3 + 3 + 2 + 3 over 4.
    expect(report.averageQuarterHour).toBe(2.75);
    // L1, L2, L3, L5, L6, L7 and the bot without an address.
    expect(report.cume).toBe(7);
    expect(report.uniqueListeners).toEqual({ day: 7, week: 8, month: 9 });
  });

  it('breaks the hour down by country, client family and mount', async () => {
    const { body } = await admin.get(`${BASE}/reports/listeners?${hourQuery}`).expect(200);
    const byKey = <K extends string>(rows: Array<Record<K, unknown>>, key: K) =>
      Object.fromEntries(rows.map(({ [key]: k, ...rest }) => [String(k), rest]));
    expect(byKey(body.byCountry, 'country')).toEqual({
      DE: { sessions: 3, listeners: 2, hours: 0.883 },
      FR: { sessions: 1, listeners: 1, hours: 0.167 },
      US: { sessions: 1, listeners: 1, hours: 0.75 },
      BR: { sessions: 1, listeners: 1, hours: 0.017 },
      JP: { sessions: 1, listeners: 1, hours: 0.025 },
      null: { sessions: 1, listeners: 1, hours: 0.083 },
    });
    expect(byKey(body.byClient, 'client')).toEqual({
      browser: { sessions: 3, listeners: 2, hours: 0.883 },
      player: { sessions: 2, listeners: 2, hours: 0.25 },
      app: { sessions: 1, listeners: 1, hours: 0.75 },
      bot: { sessions: 1, listeners: 1, hours: 0.017 },
      other: { sessions: 1, listeners: 1, hours: 0.025 },
    });
    expect(byKey(body.byMount, 'mount')).toEqual({
      // L1 twice, L2, L6 and the bot.
      '/radio.mp3': { sessions: 5, listeners: 4, hours: 1.1 },
      '/radio.aac': { sessions: 2, listeners: 2, hours: 0.775 },
      '/radio-low.mp3': { sessions: 1, listeners: 1, hours: 0.05 },
    });
    // Ordered by time listened.
    expect(body.byCountry[0].country).toBe('DE');
  });

  it('filters by mount, country and client', async () => {
    const mp3 = await dj
      .get(`${BASE}/reports/listeners?${hourQuery}&mount=/radio.mp3&client=browser`)
      .expect(200);
    expect(mp3.body.sessions).toBe(2);
    expect(mp3.body.cume).toBe(1);
    expect(mp3.body.peak.listeners).toBe(1);
    const de = await dj.get(`${BASE}/reports/listeners?${hourQuery}&country=DE`).expect(200);
    expect(de.body.sessions).toBe(3);
    expect(de.body.series[0].listeners).toBe(2);
    expect(de.body.uniqueListeners).toEqual({ day: 2, week: 3, month: 3 });
  });

  it('reads summed hours from the hourly sums and sketches of the listeners', async () => {
    const { body } = await dj
      .get(`${BASE}/reports/listeners?from=${iso(H)}&to=${iso(H + 2 * HOUR)}`)
      .expect(200);
    expect(body.step).toBe('hour');
    // Sessions under way in each hour, as the sessions themselves would give.
    expect(body.series).toEqual([
      { at: iso(H), listeners: 12 },
      { at: iso(H + HOUR), listeners: 3 },
    ]);
    expect(body.peak).toEqual({ at: iso(H), listeners: 12 });
    expect(body.sessions).toBe(15);
    expect(body.listeningHours).toBe(7.5);
    expect(body.averageSessionSeconds).toBe(1800);
    // 30 quarter hours listened 5 minutes or more, over 8 quarter hours.
    expect(body.averageQuarterHour).toBe(3.75);
    // Merged sketches: small, so exact.
    expect(body.cume).toBe(13);
    expect(body.uniquesEstimated).toBe(true);
    expect(body.uniqueListeners).toEqual({ day: 13, week: 13, month: 13 });
    expect(body.byCountry).toEqual([
      { country: 'DE', sessions: 10, listeners: 9, hours: 5 },
      { country: 'FR', sessions: 3, listeners: 3, hours: 1.5 },
      { country: null, sessions: 2, listeners: 2, hours: 1 },
    ]);
    const aac = await dj
      .get(`${BASE}/reports/listeners?from=${iso(H)}&to=${iso(H + 2 * HOUR)}&mount=/radio.aac`)
      .expect(200);
    expect(aac.body.series.map((p: { listeners: number }) => p.listeners)).toEqual([0, 3]);
    expect(aac.body.cume).toBe(3);
  });

  it('gives each play its listeners at start and end and the tune-outs', async () => {
    const { body } = await dj.get(`${BASE}/reports/tracks?${hourQuery}`).expect(200);
    expect(body.plays).toEqual([
      {
        playedAt: iso(at(8)),
        endedAt: iso(at(12)),
        track: { id: expect.any(Number), title: 'Song, "One"', artist: 'Band' },
        listenersAtStart: 2,
        listenersAtEnd: 4,
        leftDuring: 0,
        listeners: 3,
      },
      {
        playedAt: iso(at(12.5)),
        endedAt: iso(at(25)),
        track: { id: null, title: 'Two', artist: 'Solo\nArtist' },
        listenersAtStart: 4,
        listenersAtEnd: 2,
        leftDuring: 2,
        listeners: 4,
      },
      {
        playedAt: iso(at(55)),
        endedAt: iso(at(60)),
        track: { id: null, title: 'Three', artist: 'Trio' },
        listenersAtStart: 2,
        listenersAtEnd: 1,
        leftDuring: 1,
        listeners: 2,
      },
    ]);
    const old = await dj
      .get(`${BASE}/reports/tracks?from=${iso(T0 - 30 * DAY - HOUR)}&to=${iso(T0 - 29 * DAY)}`)
      .expect(200);
    expect(old.body.plays).toEqual([
      expect.objectContaining({ listenersAtStart: null, listenersAtEnd: null, listeners: null }),
    ]);
  });

  it('exports the plays as RFC 4180 CSV with their listeners', async () => {
    const res = await dj.get(`${BASE}/reports/plays.csv?${hourQuery}`).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="?plays-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv"?$/,
    );
    expect(res.text).toBe(
      [
        'time,artist,title,album,isrc,duration,listeners',
        // Quoted only where a field holds a comma, quote or line break: the ISRC stays bare.
        `${iso(at(8))},Band,"Song, ""One""","Album, Vol. 1",USRC17607839,240,3`,
        `${iso(at(12.5))},"Solo\nArtist",Two,,,750,4`,
        `${iso(at(55))},Trio,Three,,,300,2`,
        '',
      ].join('\r\n'),
    );
  });

  it('gives over summed hours what the sessions give (uniques exact while small)', async () => {
    // Periods reaching back over 48 h, so per hour: up to three hours after the sessions,
    // and up to the current hour (not summed yet, read from the sessions); and per minute.
    const periods = [
      `from=${iso(T0 - 3 * DAY)}&to=${iso(T0 + 3 * HOUR)}`,
      `from=${iso(T0 - 3 * DAY)}&to=${iso(Date.now())}`,
      // Per minute: minutes before the first whole hour, then summed hours, then the rest.
      `from=${iso(at(7))}&to=${iso(Date.now())}`,
      `from=${iso(at(-53))}&to=${iso(at(150))}`,
    ];
    const filters = ['', '&country=DE', '&mount=/radio.mp3&client=browser'];
    const reports = async () => {
      const bodies = [];
      for (const period of periods) {
        for (const filter of filters) {
          const { body } = await dj.get(`${BASE}/reports/listeners?${period}${filter}`).expect(200);
          bodies.push(body);
        }
      }
      return bodies;
    };
    // And the play log: counted by the rollup once summed, from the sessions before.
    const log = `from=${iso(T0 - 3 * DAY)}&to=${iso(Date.now())}`;
    const playLog = async () => [
      (await dj.get(`${BASE}/reports/tracks?${log}`).expect(200)).body,
      (await dj.get(`${BASE}/reports/plays.csv?${log}`).expect(200)).text,
    ];
    // The sessions were stored after the api's first rollup run: read from the sessions.
    const raw = await reports();
    const rawLog = await playLog();
    expect(raw.map((body) => body.uniquesEstimated)).toEqual(raw.map(() => false));
    expect(raw[0].step).toBe('hour');
    expect(raw[6].step).toBe('minute');
    expect(raw[0].sessions).toBe(11);
    const rollup = new AudienceRollup(
      new AudienceRepository(t.db),
      createReports(t.db).plays,
      { retentionDays: 400, intervalMs: HOUR },
      silentLogger(),
    );
    expect((await rollup.run()).plays).toBe(3);
    expect(await t.db.db.selectFrom('play_listeners').select('play_id').execute()).toHaveLength(3);
    expect(await playLog()).toEqual(rawLog);
    const summed = await reports();
    expect(summed.map((body) => body.uniquesEstimated)).toEqual(raw.map(() => true));
    const strip = ({ uniquesEstimated: _, ...rest }: Record<string, unknown>) => rest;
    expect(summed.map(strip)).toEqual(raw.map(strip));
  });

  it('is for DJs and admins, and checks the period', async () => {
    expectError(await listener.get(`${BASE}/reports/listeners`), 403, 'API_FORBIDDEN');
    expectError(await listener.get(`${BASE}/reports/plays.csv`), 403, 'API_FORBIDDEN');
    expectError(
      await dj.get(`${BASE}/reports/listeners?from=${iso(at(60))}&to=${iso(T0)}`),
      400,
      'API_VALIDATION',
    );
    expectError(
      await dj.get(`${BASE}/reports/tracks?from=${iso(T0 - 40 * DAY)}&to=${iso(T0)}`),
      400,
      'API_VALIDATION',
    );
    expectError(await dj.get(`${BASE}/reports/listeners?from=yesterday`), 400, 'API_VALIDATION');
    expectError(await dj.get(`${BASE}/reports/listeners?country=Germany`), 400, 'API_VALIDATION');
    // Without a period: the last day, per minute.
    const { body } = await dj.get(`${BASE}/reports/listeners`).expect(200);
    expect(body.step).toBe('minute');
    // A day, widened to whole minutes.
    expect(body.series.length).toBeGreaterThanOrEqual(24 * 60);
    expect(body.series.length).toBeLessThanOrEqual(24 * 60 + 1);
  });

  it('finds a session that began days before a short period far back', async () => {
    // The longest session bounds how far back the started index is read: this one, three
    // days long, is it, and reaches into the hour asked for.
    const from = T0 - 60 * DAY;
    await insertSessions(t.db, [
      {
        mount: '/radio.mp3',
        start: from - 3 * DAY,
        end: from + 30 * MIN,
        country: 'DE',
        client: 'player',
        listener: 'L-long',
      },
    ]);
    const totals = await new ReportsRepository(t.db).totals({ from, to: from + HOUR }, {});
    expect(totals).toMatchObject({ sessions: 1, listeners: 1, listeningMs: 30 * MIN });
  });
});
