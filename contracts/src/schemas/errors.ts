import { z } from 'zod';
import { API_ERROR_STATUS, type ApiErrorBody, type ApiErrorCode } from '../errors.js';

const API_ERROR_CODES = Object.keys(API_ERROR_STATUS) as [ApiErrorCode, ...ApiErrorCode[]];

/** The body of every API error, as a schema (for the OpenAPI document). */
export const apiErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(API_ERROR_CODES),
    message: z.string().describe('What went wrong and, where possible, what to do; written for a person.'),
    details: z.unknown().optional().describe('Depends on the code: RATE_LIMITED {retry_after_s}, VALIDATION_FAILED {issues: [{path, message}]}.'),
  }),
}) satisfies z.ZodType<ApiErrorBody>;
