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
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  email,
  password,
  invite: z.string().trim().min(1).max(200).optional(),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const updateUserSchema = z
  .object({ role: z.enum(['admin', 'member']).optional(), disabled: z.boolean().optional() })
  .strict()
  .refine((v) => v.role !== undefined || v.disabled !== undefined, 'give role or disabled');
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

export const createInviteSchema = z
  .object({ expires_in_hours: z.number().int('must be a whole number').min(1).max(24 * 30).optional() })
  .strict();
export type CreateInviteInput = z.infer<typeof createInviteSchema>;

export const updateSettingsSchema = z.object({ registration: z.enum(['open', 'invite', 'closed']) }).strict();
export type UpdateSettingsInput = z.infer<typeof updateSettingsSchema>;

export const createGrantSchema = z
  .object({ user_id: z.string().trim().min(1).max(100), path: z.string().trim().min(1, 'must name a file or folder under SQLITE_ROOT').max(1024) })
  .strict();
export type CreateGrantInput = z.infer<typeof createGrantSchema>;
