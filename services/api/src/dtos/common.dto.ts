import { z } from 'zod';

/*
 * Building blocks of the request and response schemas. Path and query values arrive as text,
 * so their schemas take strings and transform them; the OpenAPI document shows the input side.
 */

const MAX_ID = 2_147_483_647;

/** A positive integer id written in decimal, as in `/tracks/42`. */
export const idText = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, 'expected a positive integer id')
  .transform(Number)
  .pipe(z.number().int().max(MAX_ID, 'id is out of range'));

/** A positive integer id in a JSON body. */
export const id = z.number().int().positive().max(MAX_ID);

/**
 * An integer query parameter between min and max, with a default. It arrives as text; the
 * OpenAPI document shows it as the integer it stands for (see `integerQuery` in openapi.ts).
 */
export function intQuery(min: number, max: number, fallback: number, description: string) {
  return z
    .string()
    .regex(/^[0-9]{1,9}$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback)
    .meta({ description, integerQuery: { minimum: min, maximum: max, default: fallback } });
}

export const paginationQuery = {
  page: intQuery(1, 1_000_000, 1, '1-based page number'),
  limit: intQuery(1, 200, 50, 'items per page'),
};

/** Text a user searches for or filters by; long enough for any real tag, bounded for safety. */
export const searchText = z.string().max(500, 'at most 500 characters');

export const timestamp = z.string().describe('ISO-8601 UTC timestamp');

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    limit: z.number().int().positive(),
  });
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

export const errorResponse = z.object({
  error: z.object({
    code: z.string().describe('stable error code, e.g. API_TRACK_NOT_FOUND'),
    message: z.string(),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('facts about the refusal, e.g. the other entry of a schedule overlap'),
  }),
});

export const emptyObject = z.strictObject({});
