import type { OpenAPIObject } from '@nestjs/swagger';
import { apiErrorBodySchema } from '@aigis/contracts';
import { z } from 'zod';
import { SUCCESS_SCHEMA } from './zod.js';

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

/**
 * Moves each operation's success body schema (`@Returns`) under its success status (the one the route answers with:
 * 200, 201, 202). A 204 has no body. The contract test checks that every other operation has one.
 */
export function documentResponses(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method] as (typeof item)[typeof method] & { [SUCCESS_SCHEMA]?: { contentType: string; schema: object } };
      if (!operation) continue;
      const success = operation[SUCCESS_SCHEMA];
      delete operation[SUCCESS_SCHEMA];
      const status = Object.keys(operation.responses ?? {}).find((code) => /^2\d\d$/.test(code));
      if (!success || !status || status === '204') continue;
      const response = operation.responses[status] as { description?: string; content?: object };
      response.content = { [success.contentType]: { schema: success.schema } };
    }
  }
  return document;
}
