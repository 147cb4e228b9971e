import type { ApiRouter } from '../routing.ts';
import type { PlayReports } from './play-reports.ts';
import {
  listenersQuery,
  listenersReportSchema,
  playsQuery,
  tracksReportSchema,
} from './reports.dto.ts';
import type { ReportsService } from './reports.service.ts';

const tag = 'reports';

export function reportsController(
  routes: ApiRouter,
  reports: { listeners: ReportsService; plays: PlayReports },
): void {
  routes.get(
    '/reports/listeners',
    {
      tag,
      summary: 'Listeners over time, peak, unique listeners, hours, AQH and cume',
      description:
        'From the listener sessions: a series per minute when the period lies within the last ' +
        '48 hours, per hour beyond, and the figures by mount, country and client family. ' +
        'Complete hours come from the hourly sums (kept past LISTENER_RETENTION_DAYS), exact ' +
        'as the sessions give them; only the hours not summed yet read the sessions. Unique ' +
        'listeners over summed hours merge HyperLogLog sketches: estimates within about 1 %, ' +
        'exact when small (uniquesEstimated says which).',
      access: 'dj',
      query: listenersQuery,
      response: listenersReportSchema,
    },
    ({ query }) => reports.listeners.listeners(query),
  );

  routes.get(
    '/reports/tracks',
    {
      tag,
      summary: 'Each song played, with its listeners at start and end and how many left during it',
      description: 'Jingles are left out; at most 31 days at once.',
      access: 'dj',
      query: playsQuery,
      response: tracksReportSchema,
    },
    ({ query }) => reports.plays.tracks(query),
  );

  routes.get(
    '/reports/plays.csv',
    {
      tag,
      summary: 'The play log as CSV, with the listeners of each play (for royalty reports)',
      description:
        'Columns `time,artist,title,album,isrc,duration,listeners` (RFC 4180). `listeners` ' +
        "counts the listeners who heard some of the play; `isrc` is the file's ISRC tag, empty " +
        'when it has none. Jingles are left out; at most 31 days at once.',
      access: 'dj',
      query: playsQuery,
      produces: { contentType: 'text/csv', description: 'one line per play, with a header' },
    },
    async ({ query, res }) => {
      const csv = await reports.plays.csv(query);
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      res
        .status(200)
        .type('text/csv; charset=utf-8')
        .attachment(`plays-${day(query.from)}-${day(query.to - 1)}.csv`)
        .send(csv);
      return undefined;
    },
  );
}
