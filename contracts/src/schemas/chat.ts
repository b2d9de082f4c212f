/** Request bodies of /api/chat: the API validates with them, the web app sends their input types. */
import { z } from 'zod';

/** A thread's review mode; null follows the connection. */
const review = z.enum(['never', 'expensive', 'always'], { error: 'must be one of never, expensive, always (or null to follow the connection)' }).nullable();

/** False: the SQL writer gets no knowledge examples in this thread (to measure what they add). */
const knowledgeExamples = z.boolean({ error: 'must be true or false' });

const title = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const createThreadSchema = z
  .object({
    model: z.string().trim().min(1).max(200).optional(),
    connection_id: z.string().trim().min(1).max(100).optional(),
    title: title.optional(),
    review: review.optional(),
    knowledge_examples: knowledgeExamples.optional(),
  })
  .strict();
export type CreateThreadRequest = z.input<typeof createThreadSchema>;
export type CreateThreadInput = z.output<typeof createThreadSchema>;

export const updateThreadSchema = z
  .object({ title: title.optional(), review: review.optional(), knowledge_examples: knowledgeExamples.optional() })
  .strict()
  .refine((v) => v.title !== undefined || v.review !== undefined || v.knowledge_examples !== undefined, {
    message: 'give a title, a review mode or knowledge_examples',
  });
export type UpdateThreadRequest = z.input<typeof updateThreadSchema>;
export type UpdateThreadInput = z.output<typeof updateThreadSchema>;

/** POST /api/chat/:id/confirm: the user's decision on the query waiting for review. */
export const confirmSchema = z
  .object({
    decision: z.enum(['approve', 'deny'], { error: 'must be "approve" or "deny"' }),
    /** Approve: the SQL to run instead of the proposed one (checked by the guard again). */
    sql: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20,000 characters').optional(),
    /** Deny: why, for the model. */
    reason: z.string().trim().max(2000, 'must be at most 2,000 characters').optional(),
    /** The proposal decided on; a different pending proposal answers 409 REVIEW_STALE. */
    proposal_id: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .refine((v) => v.decision === 'approve' || v.sql === undefined, { message: 'sql: only an approval carries SQL', path: ['sql'] });
export type ConfirmRequest = z.input<typeof confirmSchema>;
export type ConfirmInput = z.output<typeof confirmSchema>;

export const setModelSchema = z.object({ name: z.string().trim().min(1, 'must name a model').max(200) }).strict();
export type SetModelRequest = z.input<typeof setModelSchema>;

export const setConnectionSchema = z.object({ connection_id: z.string().trim().min(1, 'must name a connection').max(100) }).strict();
export type SetConnectionRequest = z.input<typeof setConnectionSchema>;

export const messageSchema = z
  .object({ content: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20,000 characters') })
  .strict();
export type MessageRequest = z.input<typeof messageSchema>;
export type MessageInput = z.output<typeof messageSchema>;
