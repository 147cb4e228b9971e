import {
  createScheduleBody,
  occurrenceListSchema,
  occurrencesQuery,
  scheduleIdParams,
  scheduleListSchema,
  scheduleSchema,
  updateScheduleBody,
} from '../dtos/schedules.dto.ts';
import { comingUpSchema, timelineQuery, timelineResponse } from '../dtos/timeline.dto.ts';
import type { ApiRouter } from '../routing.ts';
import type { SchedulesService } from '../services/schedules.service.ts';
import type { TimelineService } from '../services/timeline.service.ts';

const overlap =
  'Entries of the same priority may not share a minute: 409 SCHEDULE_OVERLAP names the other ' +
  'entry and gives its id in `error.details.otherId`.';

export function schedulesController(routes: ApiRouter, schedules: SchedulesService): void {
  routes.get(
    '/schedules',
    {
      tag: 'schedules',
      summary: "The station's schedule entries (dj or admin)",
      access: 'dj',
      response: scheduleListSchema,
    },
    () => schedules.list(),
  );

  routes.get(
    '/schedules/occurrences',
    {
      tag: 'schedules',
      summary: 'Every span of every entry in a time range (dj or admin)',
      description:
        'Expanded in STATION_TIMEZONE, right across daylight-saving changes; at most 31 days.',
      access: 'dj',
      query: occurrencesQuery,
      response: occurrenceListSchema,
    },
    ({ query }) => schedules.occurrences(query.from, query.to),
  );

  routes.post(
    '/schedules',
    {
      tag: 'schedules',
      summary: 'Schedule a playlist or a DJ show slot (admin)',
      description: overlap,
      access: 'admin',
      body: createScheduleBody,
      status: 201,
      response: scheduleSchema,
      errors: [404, 409],
    },
    ({ user, body }) => schedules.create(user, body),
  );

  routes.patch(
    '/schedules/:id',
    {
      tag: 'schedules',
      summary: 'Change a schedule entry (admin)',
      description: overlap,
      access: 'admin',
      params: scheduleIdParams,
      body: updateScheduleBody,
      response: scheduleSchema,
      errors: [404, 409],
    },
    ({ user, params, body }) => schedules.update(user, params.id, body),
  );

  routes.delete(
    '/schedules/:id',
    {
      tag: 'schedules',
      summary: 'Delete a schedule entry (admin)',
      access: 'admin',
      params: scheduleIdParams,
      status: 204,
      errors: [404],
    },
    async ({ user, params }) => {
      await schedules.delete(user, params.id);
      return undefined;
    },
  );
}

export function timelineController(routes: ApiRouter, timeline: TimelineService): void {
  routes.get(
    '/schedule/timeline',
    {
      tag: 'schedules',
      summary: "The scheduler's plan for the next hours (dj or admin)",
      description:
        'Each planned entry with its expected start, the track or DJ slot, where it comes from ' +
        'and why. Answered by the scheduler over the bus and kept until the plan changes; 503 ' +
        'when the scheduler does not answer in time.',
      access: 'dj',
      query: timelineQuery,
      response: timelineResponse,
      errors: [503],
    },
    ({ query }) => timeline.timeline(query.hours),
  );

  routes.get(
    '/schedule/next',
    {
      tag: 'schedules',
      summary: 'Coming up: the next three tracks',
      description: 'Empty until the scheduler has made a plan.',
      access: 'public',
      response: comingUpSchema,
    },
    () => timeline.comingUp(),
  );
}
