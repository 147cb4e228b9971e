import { z } from 'zod';
import { id, idText, pageOf, paginationQuery, searchText, timestamp } from './common.dto.ts';

export const roleSchema = z.enum(['admin', 'dj', 'listener']);
export type Role = z.infer<typeof roleSchema>;

// ASCII only: the unique index on lower(username) folds ASCII case on SQLite, so names that
// differ only in the case of other letters would count as different accounts there.
export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'at least 3 characters')
  .max(32, 'at most 32 characters')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
    'letters, digits, "_", "." and "-", starting with a letter or digit',
  );

// The upper bound keeps one request from costing a long hash.
export const passwordSchema = z
  .string()
  .min(8, 'at least 8 characters')
  .max(256, 'at most 256 characters');

export const userSchema = z.object({
  id,
  username: z.string(),
  role: roleSchema,
  disabled: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  lastLoginAt: timestamp.nullable(),
});
export type UserDto = z.infer<typeof userSchema>;
/** The user of a request (req.user): an enabled account with a valid session. */
export type AuthUser = UserDto;

export const userListQuery = z.object({
  q: searchText.optional().describe('part of the user name'),
  role: roleSchema.optional(),
  ...paginationQuery,
});
export type UserListQuery = z.output<typeof userListQuery>;

export const userPage = pageOf(userSchema);

export const createUserBody = z.strictObject({
  username: usernameSchema,
  password: passwordSchema,
  role: roleSchema.default('listener'),
  disabled: z.boolean().default(false),
});
export type CreateUserBody = z.output<typeof createUserBody>;

export const updateUserBody = z
  .strictObject({
    username: usernameSchema.optional(),
    role: roleSchema.optional(),
    disabled: z.boolean().optional(),
    password: passwordSchema.optional().describe('a new password (an admin reset)'),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdateUserBody = z.output<typeof updateUserBody>;

export const userIdParams = z.object({ id: idText });
