import { z } from 'zod';
import { passwordSchema, usernameSchema, userSchema } from './users.dto.ts';

export const registerBody = z.strictObject({ username: usernameSchema, password: passwordSchema });
export type RegisterBody = z.output<typeof registerBody>;

export const setupBody = z.strictObject({
  code: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .describe('the setup code printed at start; case, spaces and dashes do not matter'),
  username: usernameSchema,
  password: passwordSchema,
});
export type SetupBody = z.output<typeof setupBody>;

// Login takes any text within bounds: the rules for new names and passwords may change, and an
// old account must still be able to log in.
export const loginBody = z.strictObject({
  username: z.string().min(1).max(200),
  password: z.string().min(1).max(1024),
});
export type LoginBody = z.output<typeof loginBody>;

export const updateMeBody = z
  .strictObject({
    username: usernameSchema.optional(),
    password: passwordSchema.optional().describe('the new password'),
    currentPassword: z.string().max(1024).optional().describe('required to change the password'),
  })
  .refine((body) => body.username !== undefined || body.password !== undefined, {
    message: 'give a new username or password',
  })
  .refine((body) => body.password === undefined || body.currentPassword !== undefined, {
    message: 'currentPassword is required to change the password',
    path: ['currentPassword'],
  });
export type UpdateMeBody = z.output<typeof updateMeBody>;

export const userResponse = z.object({ user: userSchema });

export const authStatusSchema = z.object({
  authenticated: z.boolean(),
  user: userSchema.optional(),
  setupRequired: z
    .boolean()
    .describe(
      'true while the station has no admin: POST /auth/setup with the setup code creates one',
    ),
});
