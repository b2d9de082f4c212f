/** Request bodies of /api/auth and /api/admin: the API validates with them, the web app sends their input types. */
import { z } from 'zod';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'must be a valid email address' }).max(254));
const password = z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters');

export const loginSchema = z.object({
  email,
  password,
  /** `token` (default): the answer carries a bearer token. `cookie`: the web app's httpOnly session cookie. */
  session: z.enum(['token', 'cookie']).optional(),
});
export type LoginRequest = z.input<typeof loginSchema>;
export type LoginInput = z.output<typeof loginSchema>;

export const registerSchema = z.object({
  email,
  password,
  invite: z.string().trim().min(1).max(200).optional(),
});
export type RegisterRequest = z.input<typeof registerSchema>;
export type RegisterInput = z.output<typeof registerSchema>;

export const updateUserSchema = z
  .object({ role: z.enum(['admin', 'member']).optional(), disabled: z.boolean().optional() })
  .strict()
  .refine((v) => v.role !== undefined || v.disabled !== undefined, 'give role or disabled');
export type UpdateUserRequest = z.input<typeof updateUserSchema>;
export type UpdateUserInput = z.output<typeof updateUserSchema>;

export const createInviteSchema = z
  .object({ expires_in_hours: z.number().int('must be a whole number').min(1).max(24 * 30).optional() })
  .strict();
export type CreateInviteRequest = z.input<typeof createInviteSchema>;
export type CreateInviteInput = z.output<typeof createInviteSchema>;

export const updateSettingsSchema = z.object({ registration: z.enum(['open', 'invite', 'closed']) }).strict();
export type UpdateSettingsRequest = z.input<typeof updateSettingsSchema>;
export type UpdateSettingsInput = z.output<typeof updateSettingsSchema>;

export const createGrantSchema = z
  .object({ user_id: z.string().trim().min(1).max(100), path: z.string().trim().min(1, 'must name a file or folder under SQLITE_ROOT').max(1024) })
  .strict();
export type CreateGrantRequest = z.input<typeof createGrantSchema>;
export type CreateGrantInput = z.output<typeof createGrantSchema>;
