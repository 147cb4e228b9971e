import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Api, BASE_PATH, createApi } from '@radio/api';
import { type Bus, createRedisBus, silentLogger } from '@radio/core';
import { freePort, waitFor } from '@radio/core/testing';
import { createDb, type DbHandle, type ListenerSession, migrateToLatest } from '@radio/db';
import { createStreamServer, type StreamServer } from '@radio/stream';
import {
  ForwardingProxy,
  listen,
  OwnRedis,
  SOURCE_PASSWORD,
  startSource,
  type TestListener,
} from './helpers/listeners.ts';

/*
 * Listener sessions from a real stream server through a real Redis bus into a real api and
 * database: addresses behind a trusted proxy, a spoofed X-Forwarded-For, client families,
 * countries, durations, and what the api's reports and play-log CSV make of them over HTTP;
 * then Redis and the api each away for 10 s while listeners come and go.
 */

const root = resolve(import.meta.dirname, '../..');
const logger = silentLogger();
const PROXY_ADDRESS = '127.0.0.2';
const MOUNT = '/radio.mp3';
const ADMIN = { username: 'admin', password: 'reports-admin-password' };
const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Public addresses of five countries; the test checks each against the database itself. */
const COUNTRIES: readonly (readonly [string, string])[] = [
  ['8.8.8.8', 'US'],
  ['81.2.69.142', 'GB'],
  ['5.9.0.1', 'DE'],
  ['133.1.1.1', 'JP'],
  ['200.160.2.3', 'BR'],
];

const AGENTS: readonly (readonly [string, string])[] = [
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    'browser',
  ],
  ['Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0', 'browser'],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
    'browser',
  ],
  ['VLC/3.0.18 LibVLC/3.0.18', 'player'],
  ['mpv 0.35.1', 'player'],
  ['foobar2000/1.6.16', 'player'],
  ['Lavf/60.16.100', 'player'],
  ['TuneIn Radio/27.4.1 (Android 13; SM-G991B; Java)', 'app'],
  ['AppleCoreMedia/1.0.0.21A329 (iPhone; U; CPU OS 17_0 like Mac OS X; en_us)', 'app'],
  ['curl/8.5.0', 'bot'],
];

interface Station {
  stream: StreamServer;
  api: Api;
  db: DbHandle;
  buses: Bus[];
  stopSource: () => void;
  dir: string;
}

async function openStation(
  redisUrl: string,
  prefix: string,
  databaseUrl: (dir: string) => string,
): Promise<Station> {
  const dir = await mkdtemp(join(tmpdir(), 'radio-sessions-'));
  const db = await createDb(databaseUrl(dir));
  await migrateToLatest(db.db);
  const buses = [
    await createRedisBus({ url: redisUrl, logger, prefix }),
    await createRedisBus({ url: redisUrl, logger, prefix }),
  ];
  const stream = createStreamServer(
    {
      host: '127.0.0.1',
      port: 0,
      adminUser: 'admin',
      adminPassword: 'admin-secret',
      sourcePassword: SOURCE_PASSWORD,
      trustedProxies: [PROXY_ADDRESS],
    },
    { logger, bus: buses[0] },
  );
  await stream.start();
  const api = startApi(stream, db, buses[1] as Bus, dir);
  await api.start();
  const stopSource = await startSource(stream.port, MOUNT);
  return { stream, api, db, buses, stopSource, dir };
}

function startApi(stream: StreamServer, db: DbHandle, bus: Bus, dir: string): Api {
  return createApi(
    {
      sessionSecret: 'test-session-secret-0123456789',
      streamUrl: stream.url,
      musicDir: dir,
      dataDir: dir,
      scryptCost: 10,
      audience: { privacy: 'full' },
      bootstrapAdmin: ADMIN,
    },
    { db, bus, logger },
  );
}

/** Stops everything; `cleanup` runs on the database before it is closed. */
async function closeStation(
  station: Station | undefined,
  cleanup?: (db: DbHandle) => Promise<unknown>,
): Promise<void> {
  if (!station) return;
  station.stopSource();
  await station.stream.close();
  await station.api.close();
  for (const bus of station.buses) await bus.close();
  await cleanup?.(station.db);
  await station.db.close();
  await rm(station.dir, { recursive: true, force: true });
}

function sessions(db: DbHandle): Promise<ListenerSession[]> {
  return db.db.selectFrom('listener_sessions').selectAll().orderBy('id').execute();
}

/** Signs in as the admin over HTTP; gives a GET of a path under the api's base with the cookie. */
async function signIn(api: Api): Promise<(path: string) => Promise<Response>> {
  const res = await fetch(`${api.url}${BASE_PATH}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return (path) => fetch(`${api.url}${BASE_PATH}${path}`, { headers: { cookie } });
}

/** A listener of the test, with the address the proxy gave it (its own, if it came direct). */
interface Known {
  listener: TestListener;
  address: string;
}

/** A song on air, as the scheduler logs it in play_history. */
interface Play {
  id: number;
  title: string;
  artist: string;
  start: number;
  end: number | null;
}

/** What the scheduler writes when a song goes on air; `offAir` writes its end. */
async function onAir(db: DbHandle, title: string, artist: string): Promise<Play> {
  const start = Date.now();
  const { id } = await db.db
    .insertInto('play_history')
    .values({
      track_id: null,
      title,
      artist,
      source: 'rotation',
      request_id: null,
      started_at: iso(start),
      ended_at: null,
      playlist_id: null,
      song_request_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, title, artist, start, end: null };
}

async function offAir(db: DbHandle, play: Play): Promise<void> {
  play.end = Date.now();
  await db.db
    .updateTable('play_history')
    .set({ ended_at: iso(play.end) })
    .where('id', '=', play.id)
    .execute();
}

/** One of the report's breakdowns (by country, client or mount). */
type Group = { sessions: number; listeners: number; hours: number } & Record<string, unknown>;

interface ListenersReport {
  sessions: number;
  cume: number;
  peak: { listeners: number };
  listeningHours: number;
  averageSessionSeconds: number;
  byMount: Group[];
  byCountry: Group[];
  byClient: Group[];
}

/** A breakdown keyed by its group ('null' for no country), the rest of each group as values. */
function byKey(groups: readonly Group[], key: string): Record<string, unknown> {
  return Object.fromEntries(groups.map(({ [key]: k, ...rest }) => [String(k), rest]));
}

describe('listener sessions: 200 listeners behind a trusted proxy, and a spoofer', () => {
  let station: Station | undefined;
  let proxy: ForwardingProxy | undefined;
  let get: (path: string) => Promise<Response>;
  const known: Known[] = [];
  const plays: Play[] = [];
  let rows: ListenerSession[] = [];

  beforeAll(async () => {
    station = await openStation(
      'redis://127.0.0.1:6379',
      `test:sessions:${process.pid}:${Date.now()}:`,
      (dir) => `sqlite:${join(dir, 'radio.db')}`,
    );
    get = await signIn(station.api);
  }, 30_000);

  afterAll(async () => {
    for (const { listener } of known) listener.close();
    await proxy?.close();
    await closeStation(station);
  }, 30_000);

  /** The stored time listened, in the report's unit: hours to the thousandth. */
  const hoursOf = (keep: (row: ListenerSession) => boolean) =>
    Math.round(rows.filter(keep).reduce((ms, row) => ms + row.duration_ms, 0) / 3_600) / 1_000;
  /** A group of the report: its sessions and listeners as given, its hours as stored. */
  const figures = (
    sessions: number,
    listeners: number,
    keep: (row: ListenerSession) => boolean,
  ) => ({ sessions, listeners, hours: hoursOf(keep) });
  const measured = ({ listener }: Known) => (listener.endedAt as number) - listener.startedAt;

  /** The song on air ends and the next begins, as at a change in the scheduler. */
  async function songChange(db: DbHandle, title: string, artist: string): Promise<void> {
    const playing = plays.at(-1);
    if (playing) await offAir(db, playing);
    plays.push(await onAir(db, title, artist));
  }

  it('the test addresses are in the countries the packaged database says', async () => {
    // maxmind is the api's dependency; read the same file the api reads.
    const fromApi = createRequire(join(root, 'services/api/package.json'));
    const maxmind = fromApi('maxmind') as {
      open(file: string): Promise<{ get(address: string): unknown }>;
    };
    const reader = await maxmind.open(
      fromApi.resolve('@ip-location-db/geolite2-country-mmdb/geolite2-country.mmdb'),
    );
    for (const [address, country] of COUNTRIES) {
      expect((reader.get(address) as { country_code?: string } | null)?.country_code).toBe(country);
    }
  });

  it('stores each with its country, client family and duration; the spoof is ignored', async () => {
    const { stream, db } = station as Station;
    proxy = new ForwardingProxy(stream.port, PROXY_ADDRESS);
    const proxyPort = await proxy.start();
    // A song is on air before anyone comes.
    await songChange(db, 'Opening', 'First Band');
    // 200 through the proxy: ten agents by five countries, four of each pair. Every seventh
    // also sends an X-Forwarded-For of its own, which the proxy appends to.
    for (let batch = 0; batch < 10; batch++) {
      const joined = await Promise.all(
        Array.from({ length: 20 }, async (_, k) => {
          const i = batch * 20 + k;
          const [address] = COUNTRIES[Math.floor(i / 10) % 5] as readonly [string, string];
          const [agent] = AGENTS[i % 10] as readonly [string, string];
          const own = i % 7 === 0 ? ['X-Forwarded-For: 9.9.9.9'] : [];
          const listener = await listen(proxyPort, MOUNT, agent, [
            ...own,
            `X-Test-Client: ${address}`,
          ]);
          return { listener, address };
        }),
      );
      known.push(...joined);
    }
    // Straight to the server, claiming to be in the US: not a proxy, so not believed.
    const spoofer = await listen(stream.port, MOUNT, 'curl/8.5.0', ['X-Forwarded-For: 8.8.8.8']);
    known.push({ listener: spoofer, address: '127.0.0.1' });
    expect(stream.snapshot().mounts.find((m) => m.path === MOUNT)?.listeners).toBe(201);
    // They leave in four waves, a second apart. The song changes half-way between the first
    // and second wave and between the third and fourth: half a second from any coming or
    // going, so who heard which song is not a matter of milliseconds.
    for (let wave = 0; wave < 4; wave++) {
      await new Promise((done) => setTimeout(done, 500));
      if (wave === 1) await songChange(db, 'Middle', 'Second Band');
      if (wave === 3) await songChange(db, 'Late', 'Third Band');
      await new Promise((done) => setTimeout(done, 500));
      known.forEach(({ listener }, i) => {
        if (i % 4 === wave) listener.close();
      });
    }
    rows = await waitFor('201 stored sessions', async () => {
      const stored = await sessions(db);
      return stored.length === 201 && stored;
    });
    // And one more once all have gone, which nobody heard.
    await songChange(db, 'Closing', 'Fourth Band');
    await offAir(db, plays.at(-1) as Play);

    const count = (pick: (row: ListenerSession) => string | null) => {
      const counts: Record<string, number> = {};
      for (const row of rows) counts[String(pick(row))] = (counts[String(pick(row))] ?? 0) + 1;
      return counts;
    };
    expect(count((row) => row.country)).toEqual({
      US: 40,
      GB: 40,
      DE: 40,
      JP: 40,
      BR: 40,
      null: 1,
    });
    expect(count((row) => row.client)).toEqual({ browser: 60, player: 80, app: 40, bot: 21 });
    // Privacy "full": the stored listener is the address the server resolved.
    const spoofRow = rows.find((row) => row.country === null);
    expect(spoofRow?.listener).toBe('127.0.0.1');
    expect(rows.filter((row) => row.listener === '9.9.9.9')).toEqual([]);
    for (const [address, country] of COUNTRIES) {
      expect(new Set(rows.filter((r) => r.country === country).map((r) => r.listener))).toEqual(
        new Set([address]),
      );
    }
    expect(new Set(rows.map((row) => row.mount))).toEqual(new Set([MOUNT]));
    expect(new Set(rows.map((row) => row.transport))).toEqual(new Set(['icecast']));

    // Durations, one stored session to each listener, so that no session can stand for two:
    // the four listeners of an agent and an address joined in different batches, each after
    // the one before had its answer, so the n-th of them to join has the n-th session of that
    // agent and address by start.
    const pairKey = (agent: string | null, address: string | null) => `${agent} @ ${address}`;
    const stored = new Map<string, ListenerSession[]>();
    for (const row of [...rows].sort((a, b) => a.started_ms - b.started_ms)) {
      const key = pairKey(row.user_agent, row.listener);
      stored.set(key, [...(stored.get(key) ?? []), row]);
    }
    const taken = new Map<string, number>();
    const wrong: unknown[] = [];
    for (const one of known) {
      const key = pairKey(one.listener.userAgent, one.address);
      const n = taken.get(key) ?? 0;
      taken.set(key, n + 1);
      const row = stored.get(key)?.[n];
      if (
        row === undefined ||
        Math.abs(row.started_ms - one.listener.startedAt) >= 1000 ||
        Math.abs(row.duration_ms - measured(one)) >= 1000
      ) {
        wrong.push({ key, n, measured: measured(one), stored: row?.duration_ms ?? null });
      }
    }
    expect(wrong).toEqual([]);
    expect(taken).toEqual(new Map([...stored].map(([key, list]) => [key, list.length])));
    let storedTotal = 0;
    for (const row of rows) {
      storedTotal += row.duration_ms;
      expect(row.ended_ms - row.started_ms).toBe(row.duration_ms);
      expect(row.bytes).toBeGreaterThan(0);
    }
    const measuredTotal = known.reduce((ms, one) => ms + measured(one), 0);
    expect(Math.abs(storedTotal - measuredTotal)).toBeLessThan(rows.length * 100);
    // The receipt reaches the stream server a moment after the commit.
    await waitFor('the receipts', () => stream.sessionStats().sent === 201);
    expect(stream.sessionStats()).toMatchObject({ buffered: 0, dropped: 0 });
  }, 60_000);

  it('the report gives them by country and client family, and the hours add up', async () => {
    // From the first song, which began before anyone came.
    const from = (plays[0] as Play).start;
    const res = await get(`/reports/listeners?from=${iso(from)}&to=${iso(Date.now())}`);
    expect(res.status).toBe(200);
    const report = (await res.json()) as ListenersReport;
    // One address per country, so one listener each; the spoofer has no country (it would be
    // a 41st session of the US if its header were believed) and is a sixth listener.
    expect(byKey(report.byCountry, 'country')).toEqual({
      ...Object.fromEntries(
        COUNTRIES.map(([, country]) => [country, figures(40, 1, (r) => r.country === country)]),
      ),
      null: figures(1, 1, (r) => r.country === null),
    });
    expect(byKey(report.byClient, 'client')).toEqual({
      browser: figures(60, 5, (r) => r.client === 'browser'),
      player: figures(80, 5, (r) => r.client === 'player'),
      app: figures(40, 5, (r) => r.client === 'app'),
      bot: figures(21, 6, (r) => r.client === 'bot'),
    });
    expect(byKey(report.byMount, 'mount')).toEqual({ [MOUNT]: figures(201, 6, () => true) });
    // All 201 were connected at once.
    expect(report).toMatchObject({ sessions: 201, cume: 6, peak: { listeners: 201 } });
    // The hours are the stored sessions' to the report's rounding, and so within 1 s per
    // listener (and half a thousandth of an hour) of the time the listeners measured.
    expect(report.listeningHours).toBe(hoursOf(() => true));
    const measuredTotal = known.reduce((ms, one) => ms + measured(one), 0);
    expect(Math.abs(report.listeningHours * HOUR_MS - measuredTotal)).toBeLessThanOrEqual(
      HOUR_MS / 2_000 + known.length * 1000,
    );
    const storedTotal = rows.reduce((ms, row) => ms + row.duration_ms, 0);
    expect(report.averageSessionSeconds).toBe(Math.round(storedTotal / 201) / 1000);
  });

  it('the play log CSV lists each play with the listeners who heard some of it', async () => {
    const first = plays[0] as Play;
    const last = plays.at(-1) as Play;
    const res = await get(
      `/reports/plays.csv?from=${iso(first.start)}&to=${iso((last.end as number) + 1)}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    // Heard some of it: connected before it ended and gone after it began, by the test's clock.
    const heard = (play: Play) =>
      known.filter(
        ({ listener }) =>
          listener.startedAt < (play.end as number) && (listener.endedAt as number) > play.start,
      ).length;
    // All heard the first; the second began after the first wave (51) had gone; only the last
    // wave (50) heard the third; nobody the one after.
    expect(plays.map(heard)).toEqual([201, 150, 50, 0]);
    expect(await res.text()).toBe(
      [
        'time,artist,title,album,isrc,duration,listeners',
        ...plays.map((play) => {
          const seconds = Math.round(((play.end as number) - play.start) / 1000);
          return `${iso(play.start)},${play.artist},${play.title},,,${seconds},${heard(play)}`;
        }),
        '',
      ].join('\r\n'),
    );
  });
});

describe('listener sessions survive Redis and the api being away for 10 s', () => {
  let station: Station | undefined;
  let redis: OwnRedis | undefined;
  const open: TestListener[] = [];
  const schema = `sessions_${process.pid}_${Date.now()}`;

  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    station = await openStation(
      redis.url,
      'outage:',
      () => `postgres://postgres@127.0.0.1:5432/test?schema=${schema}`,
    );
  }, 30_000);

  afterAll(async () => {
    for (const listener of open) listener.close();
    await closeStation(station, (db) =>
      db.db.schema.dropSchema(schema).ifExists().cascade().execute(),
    );
    await redis?.stop();
  }, 30_000);

  /** Listeners come and go for `ms`: one joins every 500 ms, each stays a second. */
  async function comeAndGo(ms: number, tag: string): Promise<number> {
    const { stream } = station as Station;
    let n = 0;
    const until = Date.now() + ms;
    const leaving: Promise<void>[] = [];
    while (Date.now() < until) {
      const listener = await listen(stream.port, MOUNT, `${tag}/${n}`);
      n += 1;
      leaving.push(new Promise((done) => setTimeout(done, 1000)).then(() => listener.close()));
      await new Promise((done) => setTimeout(done, 500));
    }
    await Promise.all(leaving);
    return n;
  }

  async function storedWith(tag: string): Promise<number> {
    const { db } = station as Station;
    const row = await db.db
      .selectFrom('listener_sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_agent', 'like', `${tag}/%`)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('Redis stopped: sessions wait in the stream server and are stored when it is back', async () => {
    const { stream } = station as Station;
    // Connected before the outage, leaving during it.
    const early = await listen(stream.port, MOUNT, 'redis-early/0');
    open.push(early);
    await (redis as OwnRedis).stop();
    early.close();
    const during = await comeAndGo(10_000, 'redis-out');
    await waitFor('the sessions buffered', () => stream.sessionStats().buffered >= during + 1);
    await (redis as OwnRedis).start();
    await waitFor(
      'the sessions of the outage',
      async () => (await storedWith('redis-out')) === during,
      40_000,
    );
    expect(await storedWith('redis-early')).toBe(1);
    expect(stream.sessionStats()).toMatchObject({ dropped: 0 });
    expect(stream.sessionStats().failures).toBeGreaterThan(0);
  }, 90_000);

  it('the api stopped: the batches are kept until an api answers again', async () => {
    const s = station as Station;
    const early = await listen(s.stream.port, MOUNT, 'api-early/0');
    open.push(early);
    await s.api.close();
    early.close();
    const during = await comeAndGo(10_000, 'api-out');
    expect(await storedWith('api-out')).toBe(0);
    s.api = startApi(s.stream, s.db, s.buses[1] as Bus, s.dir);
    await s.api.start();
    await waitFor(
      'the sessions of the outage',
      async () => (await storedWith('api-out')) === during,
      40_000,
    );
    expect(await storedWith('api-early')).toBe(1);
    await waitFor('the receipts', () => s.stream.sessionStats().buffered === 0);
    expect(s.stream.sessionStats()).toMatchObject({ dropped: 0 });
  }, 90_000);
});
