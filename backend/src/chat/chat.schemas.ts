import { z } from 'zod';

export const DEFAULT_TITLE = 'New conversation';

const title = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const createThreadSchema = z
  .object({
    model: z.string().trim().min(1).max(200).optional(),
    connection_id: z.string().trim().min(1).max(100).optional(),
    title: title.optional(),
  })
  .strict();
export type CreateThreadInput = z.infer<typeof createThreadSchema>;

export const updateThreadSchema = z.object({ title }).strict();

export const setModelSchema = z.object({ name: z.string().trim().min(1, 'must name a model').max(200) }).strict();

export const setConnectionSchema = z.object({ connection_id: z.string().trim().min(1, 'must name a connection').max(100) }).strict();

export const messageSchema = z
  .object({ content: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20,000 characters') })
  .strict();
export type MessageInput = z.infer<typeof messageSchema>;
