import { Body, Query, type PipeTransform } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiQuery } from '@nestjs/swagger';
import { z, type ZodType } from 'zod';
import { AppError } from './app-error.js';

/** Turns zod issues into one sentence a person can act on: "email: Invalid email address; password: …". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

export class ZodValidationPipe<T> implements PipeTransform<unknown, T> {
  constructor(private readonly schema: ZodType<T>) {}

  transform(value: unknown): T {
    const parsed = this.schema.safeParse(value ?? {});
    if (!parsed.success) {
      throw new AppError('VALIDATION_FAILED', describeIssues(parsed.error), {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    }
    return parsed.data;
  }
}

/** Parses the JSON body with `schema` and documents the same schema in the OpenAPI document. */
export function ZodBody(schema: ZodType): ParameterDecorator {
  return (target, key, index) => {
    Body(new ZodValidationPipe(schema))(target, key, index);
    if (key === undefined) return;
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (descriptor) ApiBody({ schema: z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input' }) as object })(target, key, descriptor);
  };
}

/** Parses the query string with `schema` and documents each of its fields as a query parameter. */
export function ZodQuery(schema: ZodType): ParameterDecorator {
  return (target, key, index) => {
    Query(new ZodValidationPipe(schema))(target, key, index);
    if (key === undefined) return;
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (!descriptor) return;
    const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input' }) as { properties?: Record<string, object>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      ApiQuery({ name, required: json.required?.includes(name) ?? false, schema: property })(target, key, descriptor);
    }
  };
}

/** Where `Returns` leaves the success body's schema for `documentResponses` (common/openapi.ts) to place. */
export const SUCCESS_SCHEMA = 'x-success-schema';

/**
 * Documents the success body: `schema` (a contracts response schema) goes under the route's own 2xx status in the
 * OpenAPI document. `io: 'input'` for a body that is itself a request body elsewhere (the knowledge file).
 */
export function Returns(schema: ZodType, options: { io?: 'input' | 'output'; contentType?: string } = {}): MethodDecorator {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: options.io ?? 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return ApiExtension(SUCCESS_SCHEMA, { contentType: options.contentType ?? 'application/json', schema: json });
}
