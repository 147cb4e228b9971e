import { z } from 'zod';
import { id, timestamp } from '../dtos/common.dto.ts';

export const LISTENER_CLIENTS = ['browser', 'app', 'player', 'bot', 'other'] as const;

const DAY_MS = 86_400_000;
/** The longest listeners report: three years of hourly points. */
export const MAX_LISTENERS_RANGE_DAYS = 1096;
/** The longest per-play report (a month's royalty report fits). */
export const MAX_PLAYS_RANGE_DAYS = 31;

const isoTime = z
  .string()
  .refine((text) => !Number.isNaN(Date.parse(text)), { message: 'expected an ISO-8601 time' })
  .transform((text) => Date.parse(text));

const range = {
  from: isoTime.optional().describe('start (ISO-8601); default: a day before `to`'),
  to: isoTime.optional().describe('end, exclusive (ISO-8601); default: now'),
};

/** `from`/`to` as epoch ms; `to` defaults to now and `from` to a day before `to`. */
function withDefaults<Q extends { from?: number | undefined; to?: number | undefined }>(
  query: Q,
): Q & { from: number; to: number } {
  const to = query.to ?? Date.now();
  return { ...query, to, from: query.from ?? to - DAY_MS };
}

function checkRange(maxDays: number) {
  return (query: { from: number; to: number }, ctx: z.RefinementCtx) => {
    if (query.from >= query.to)
      ctx.addIssue({ code: 'custom', message: '`from` must be before `to`' });
    else if (query.to - query.from > maxDays * DAY_MS) {
      ctx.addIssue({ code: 'custom', message: `at most ${maxDays} days at once` });
    }
  };
}

export const listenersQuery = z
  .object({
    ...range,
    mount: z.string().min(1).max(200).optional().describe('only this mount, e.g. /radio.mp3'),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'expected an ISO 3166-1 alpha-2 code such as DE')
      .optional()
      .describe('only listeners from this country'),
    client: z.enum(LISTENER_CLIENTS).optional().describe('only this client family'),
  })
  .transform(withDefaults)
  .superRefine(checkRange(MAX_LISTENERS_RANGE_DAYS));
export type ListenersQuery = z.output<typeof listenersQuery>;

export const playsQuery = z
  .object(range)
  .transform(withDefaults)
  .superRefine(checkRange(MAX_PLAYS_RANGE_DAYS));
export type PlaysQuery = z.output<typeof playsQuery>;

const count = z.number().int().nonnegative();
const hours = z.number().nonnegative().describe('hours listened within the period');

const groupFields = {
  sessions: count,
  listeners: count.describe('distinct listeners (sessions when addresses are not kept)'),
  hours,
};

export const listenersReportSchema = z.object({
  from: timestamp.describe('the period, widened to whole steps'),
  to: timestamp,
  step: z.enum(['minute', 'hour']).describe('minute within the last 48 h, hour beyond'),
  series: z
    .array(z.object({ at: timestamp, listeners: count }))
    .describe('per step: the listeners connected at some time within it'),
  peak: z.object({ at: timestamp, listeners: count }),
  uniqueListeners: z
    .object({ day: count, week: count, month: count })
    .describe('distinct listeners in the day, 7 days and 30 days that end with the period'),
  uniquesEstimated: z
    .boolean()
    .describe(
      "true when unique listeners (uniqueListeners, cume, the groups' listeners) merge the " +
        'HyperLogLog sketches of summed hours and days: estimates within about 1 %, exact ' +
        'when small (linear counting); false when they are counted from the sessions',
    ),
  sessions: count,
  listeningHours: hours,
  averageSessionSeconds: z.number().nonnegative(),
  averageQuarterHour: z
    .number()
    .nonnegative()
    .describe('average over the quarter hours of the listeners who listened ≥ 5 min in each'),
  cume: count.describe('distinct listeners in the period'),
  byMount: z.array(z.object({ mount: z.string(), ...groupFields })),
  byCountry: z.array(
    z.object({ country: z.string().nullable().describe('null: unknown'), ...groupFields }),
  ),
  byClient: z.array(z.object({ client: z.enum(LISTENER_CLIENTS), ...groupFields })),
});
export type ListenersReport = z.input<typeof listenersReportSchema>;

const listenerCount = count
  .nullable()
  .describe('null when the sessions of that time were removed before the play was counted');

export const playReportSchema = z.object({
  playedAt: timestamp,
  endedAt: timestamp.nullable().describe('null while it plays'),
  track: z.object({ id: id.nullable(), title: z.string(), artist: z.string().nullable() }),
  listenersAtStart: listenerCount,
  listenersAtEnd: listenerCount,
  leftDuring: listenerCount.describe('sessions that ended while it played'),
  listeners: listenerCount.describe('listeners who heard some of it (the CSV count)'),
});
export type PlayReport = z.input<typeof playReportSchema>;

export const tracksReportSchema = z.object({ plays: z.array(playReportSchema) });
