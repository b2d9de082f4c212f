import { z } from 'zod';

export const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'must be a valid email address' }).max(254)),
  password: z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters'),
});
export type Credentials = z.infer<typeof credentialsSchema>;
