import { z } from 'zod';

export const DEFAULT_TITLE = 'New conversation';

/** A thread's review mode; null follows the connection. */
const review = z.enum(['never', 'expensive', 'always'], { error: 'must be one of never, expensive, always (or null to follow the connection)' }).nullable();

const title = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const createThreadSchema = z
  .object({
    model: z.string().trim().min(1).max(200).optional(),
    connection_id: z.string().trim().min(1).max(100).optional(),
    title: title.optional(),
    review: review.optional(),
  })
  .strict();
export type CreateThreadInput = z.infer<typeof createThreadSchema>;

export const updateThreadSchema = z
  .object({ title: title.optional(), review: review.optional() })
  .strict()
  .refine((v) => v.title !== undefined || v.review !== undefined, { message: 'give a title or a review mode' });
export type UpdateThreadInput = z.infer<typeof updateThreadSchema>;

/** POST /api/chat/:id/confirm: the user's decision on the query waiting for review. */
export const confirmSchema = z
  .object({
    decision: z.enum(['approve', 'deny'], { error: 'must be "approve" or "deny"' }),
    sql: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20,000 characters').optional(),
    reason: z.string().trim().max(2000, 'must be at most 2,000 characters').optional(),
    proposal_id: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .refine((v) => v.decision === 'approve' || v.sql === undefined, { message: 'sql: only an approval carries SQL', path: ['sql'] });
export type ConfirmInput = z.infer<typeof confirmSchema>;

export const setModelSchema = z.object({ name: z.string().trim().min(1, 'must name a model').max(200) }).strict();

export const setConnectionSchema = z.object({ connection_id: z.string().trim().min(1, 'must name a connection').max(100) }).strict();

export const messageSchema = z
  .object({ content: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20,000 characters') })
  .strict();
export type MessageInput = z.infer<typeof messageSchema>;
