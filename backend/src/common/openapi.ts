import type { OpenAPIObject } from '@nestjs/swagger';
import { apiErrorBodySchema } from '@aigis/contracts';
import { z } from 'zod';

const ERROR_REF = { $ref: '#/components/schemas/ApiErrorBody' };
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });

/**
 * Documents the error answers of every operation: one `ApiErrorBody` schema (from the shared contract), 400 where
 * the operation reads input, 401 where it needs a session (all but `x-public`), and any other code as `default`.
 */
export function documentErrors(document: OpenAPIObject): OpenAPIObject {
  const schema = z.toJSONSchema(apiErrorBodySchema, { target: 'openapi-3.0' }) as Record<string, unknown>;
  delete schema.$schema;
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ApiErrorBody: schema } };
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const responses = operation.responses ?? {};
      if (operation.requestBody || operation.parameters?.length) responses['400'] ??= errorResponse('VALIDATION_FAILED: the input is not what this route reads (details.issues names each field).');
      if (!(operation as unknown as Record<string, unknown>)['x-public']) responses['401'] ??= errorResponse('UNAUTHORIZED: no live session (bearer token or the web app\'s cookie).');
      responses.default ??= errorResponse('Any other error; the HTTP status follows the code (see ApiErrorBody).');
      operation.responses = responses;
    }
  }
  return document;
}
