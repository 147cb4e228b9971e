/**
 * The plays CSV cannot be turned against its reader: a tag that a spreadsheet would run as a
 * formula (`=`, `+`, `-`, `@`, tab, CR) is written with a leading `'` (OWASP's advice), while
 * the numbers the api writes itself stay numbers. Both dialects, real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROUTE_SETUPS } from './helpers/databases.ts';
import {
  type Agent,
  BASE,
  insertTracks,
  loginAll,
  startTestApi,
  type TestApi,
  track,
} from './helpers/test-api.ts';

const START = Date.parse('2026-03-02T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(ROUTE_SETUPS)('the plays CSV’s cells ($dialect)', (setup) => {
  let t: TestApi;
  let dj: Agent;

  beforeAll(async () => {
    t = await startTestApi(setup);
    ({ dj } = await loginAll(t));
    const [tagged, plain] = await insertTracks(t.db, [
      track({ title: 'x', album: '-2+3', isrc: '@SUM(A1)', duration: 200 }),
      track({ title: 'y', album: 'Greatest Hits', duration: 200 }),
    ]);
    const plays = [
      { track: tagged, title: '=HYPERLINK("http://x.invalid","click")', artist: '+1-1' },
      { track: plain, title: '\tTabbed', artist: '\rReturned' },
      { track: plain, title: 'Plain - title', artist: 'A-ha' },
    ];
    for (const [i, play] of plays.entries()) {
      await t.db.db
        .insertInto('play_history')
        .values({
          track_id: play.track?.id ?? null,
          title: play.title,
          artist: play.artist,
          source: 'rotation',
          started_at: iso(START + i * 60_000),
          ended_at: iso(START + i * 60_000 + 45_000),
        })
        .execute();
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  it('neutralises tags that start like a formula, and leaves numbers and plain text alone', async () => {
    const res = await dj
      .get(`${BASE}/reports/plays.csv?from=${iso(START)}&to=${iso(START + 3_600_000)}`)
      .expect(200);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe('time,artist,title,album,isrc,duration,listeners');
    const cells = lines.slice(1, 4).map((line) => line.replace(/,[^,]*$/, ''));
    expect(cells).toEqual([
      `${iso(START)},'+1-1,"'=HYPERLINK(""http://x.invalid"",""click"")",'-2+3,'@SUM(A1),45`,
      `${iso(START + 60_000)},"'\rReturned",'\tTabbed,Greatest Hits,,45`,
      `${iso(START + 120_000)},A-ha,Plain - title,Greatest Hits,,45`,
    ]);
  });
});
