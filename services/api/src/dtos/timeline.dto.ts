import { timelineEntrySchema, timelineSchema } from '@radio/core';
import { z } from 'zod';
import { intQuery } from './common.dto.ts';

export const timelineQuery = z.object({
  hours: intQuery(1, 168, 3, 'how far ahead to plan, in hours'),
});

/** The scheduler's plan as it travels on the bus (times are epoch ms), and the station's zone. */
export const timelineResponse = timelineSchema.extend({
  timeZone: z.string().describe('STATION_TIMEZONE: the IANA zone the schedule is kept in'),
});

export const comingUpSchema = z.object({
  entries: z
    .array(
      z.object({
        at: z.number().describe('expected start, epoch ms'),
        track: timelineEntrySchema.shape.track.unwrap(),
        source: timelineEntrySchema.shape.source,
      }),
    )
    .describe('the next three tracks (jingles and live slots left out)'),
});
export type ComingUpDto = z.infer<typeof comingUpSchema>;
