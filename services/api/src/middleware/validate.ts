import type { z } from 'zod';
import { ApiError } from '../errors.ts';

const MAX_ISSUES = 5;

/** Parses request input; a mismatch is a 400 naming each bad field (`query.limit: …`). */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = [where, ...issue.path.map(String)].join('.');
    return `${path}: ${issue.message}`;
  });
  const more = result.error.issues.length - issues.length;
  throw new ApiError('API_VALIDATION', issues.join('; ') + (more > 0 ? `; and ${more} more` : ''));
}
