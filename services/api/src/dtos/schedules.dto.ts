import { z } from 'zod';
import { id, idText, timestamp } from './common.dto.ts';

const clock = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'expected HH:MM, 00:00-23:59')
  .describe('local time in STATION_TIMEZONE');
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
  // Date.parse rolls 30 February over into March; the round trip does not.
  .refine((text) => {
    const ms = Date.parse(`${text}T00:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(text);
  }, 'not a calendar date')
  .describe('the day a span starts on, inclusive, in STATION_TIMEZONE');
const days = z
  .array(z.number().int().min(1, '1 = Monday').max(7, '7 = Sunday'))
  .min(1, 'give at least one day')
  .max(7)
  .describe('the days a span starts on: 1 = Monday … 7 = Sunday');
const startMode = z
  .enum(['after_track', 'interrupt'])
  .describe('interrupt fades the track in progress out at the start; after_track lets it end');
const title = z.string().trim().min(1, 'must not be empty').max(200).nullable();
const named = z.object({ id, name: z.string() });

export const scheduleSchema = z.object({
  id,
  playlistId: id.nullable(),
  djUserId: id.nullable(),
  title: z.string().nullable(),
  days: z.array(z.number().int()),
  startTime: z.string(),
  endTime: z
    .string()
    .describe('before startTime: the span crosses midnight; equal to it: a whole day'),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  priority: z.number().int(),
  startMode,
  createdAt: timestamp,
  updatedAt: timestamp,
  playlist: named.nullable(),
  dj: named.nullable(),
});
export type ScheduleDto = z.infer<typeof scheduleSchema>;

export const scheduleListSchema = z.object({
  schedules: z.array(scheduleSchema),
  timeZone: z
    .string()
    .describe('STATION_TIMEZONE: the IANA zone of every start and end time, e.g. Europe/Berlin'),
});

const scheduleFields = {
  playlistId: id.nullable(),
  djUserId: id.nullable(),
  title,
  days,
  startTime: clock,
  endTime: clock,
  startDate: date.nullable(),
  endDate: date.nullable(),
  priority: z.number().int().min(-100).max(100).describe('the higher wins where spans overlap'),
  startMode,
};

type Fields = {
  playlistId?: number | null | undefined;
  djUserId?: number | null | undefined;
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
};

/** The checks that need several fields; PATCH repeats them on the merged entry. */
export function scheduleProblems(entry: Fields): string[] {
  const problems: string[] = [];
  const hasPlaylist = (entry.playlistId ?? null) !== null;
  const hasDj = (entry.djUserId ?? null) !== null;
  if (hasPlaylist === hasDj) {
    problems.push('give exactly one of playlistId and djUserId');
  }
  if (entry.startDate && entry.endDate && entry.startDate > entry.endDate) {
    problems.push('startDate must not be after endDate');
  }
  return problems;
}

export const createScheduleBody = z
  .strictObject({
    ...scheduleFields,
    playlistId: scheduleFields.playlistId.default(null),
    djUserId: scheduleFields.djUserId.default(null),
    title: title.default(null),
    startDate: scheduleFields.startDate.default(null),
    endDate: scheduleFields.endDate.default(null),
    priority: scheduleFields.priority.default(0),
    startMode: startMode.default('after_track'),
  })
  .superRefine((body, ctx) => {
    for (const message of scheduleProblems(body)) ctx.addIssue({ code: 'custom', message });
  });
export type CreateScheduleBody = z.output<typeof createScheduleBody>;

export const updateScheduleBody = z
  .strictObject({
    playlistId: scheduleFields.playlistId.optional(),
    djUserId: scheduleFields.djUserId.optional(),
    title: title.optional(),
    days: days.optional(),
    startTime: clock.optional(),
    endTime: clock.optional(),
    startDate: scheduleFields.startDate.optional(),
    endDate: scheduleFields.endDate.optional(),
    priority: scheduleFields.priority.optional(),
    startMode: startMode.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdateScheduleBody = z.output<typeof updateScheduleBody>;

export const scheduleIdParams = z.object({ id: idText });

const MAX_RANGE_MS = 31 * 24 * 60 * 60 * 1000;
const instant = z.iso.datetime({ offset: true }).describe('ISO-8601 time');

export const occurrencesQuery = z
  .object({
    from: instant.optional().describe('ISO-8601 time; default now'),
    to: instant
      .optional()
      .describe('ISO-8601 time, at most 31 days after from; default from + 7 days'),
  })
  .transform((query, ctx) => {
    const from = query.from === undefined ? Date.now() : Date.parse(query.from);
    const to = query.to === undefined ? from + 7 * 24 * 60 * 60 * 1000 : Date.parse(query.to);
    if (to <= from)
      ctx.addIssue({ code: 'custom', message: 'to must be after from', path: ['to'] });
    if (to - from > MAX_RANGE_MS) {
      ctx.addIssue({ code: 'custom', message: 'at most 31 days from from to to', path: ['to'] });
    }
    return { from, to };
  });

export const occurrenceSchema = z.object({
  scheduleId: id,
  start: timestamp,
  end: timestamp,
  title: z.string().nullable(),
  playlist: named.nullable(),
  dj: named.nullable(),
  priority: z.number().int(),
  startMode,
});
export type OccurrenceDto = z.infer<typeof occurrenceSchema>;

export const occurrenceListSchema = z.object({ occurrences: z.array(occurrenceSchema) });
