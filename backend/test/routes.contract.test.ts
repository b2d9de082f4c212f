import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Checks generated for every route of the OpenAPI document, so a route added anywhere is covered without
 * anyone listing it: it needs a session (401 without one), and a body or query it cannot read is a 400.
 * A route that is public on purpose must be listed here.
 */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/auth/registration',
  'POST /api/auth/register',
  'POST /api/auth/login',
  'GET /api/auth/session',
]);

interface Operation {
  method: string;
  path: string;
  /** The path with every `{param}` filled in. */
  url: string;
  hasJsonBody: boolean;
  /** Marked public by the code (`@Public()`), as the document says. */
  public: boolean;
  /** Statuses the document gives answers for. */
  responses: string[];
  query: { name: string; schema: { type?: string; enum?: unknown[] } }[];
}

type OpenApiDocument = {
  paths: Record<
    string,
    Record<string, { requestBody?: { content?: Record<string, unknown> }; parameters?: { in: string; name: string; schema?: object }[]; responses?: Record<string, unknown>; 'x-public'?: boolean }>
  >;
};

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      url: path.replace(/\{[^}]+\}/g, 'no-such-id'),
      hasJsonBody: Boolean(operation.requestBody?.content?.['application/json']),
      public: operation['x-public'] === true,
      responses: Object.keys(operation.responses ?? {}),
      query: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: (p.schema ?? {}) as Operation['query'][number]['schema'] })),
    })),
  );
}

const key = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

describe('every route of the OpenAPI document', () => {
  let app: TestApp;
  let anonymous: ApiClient;
  let admin: ApiClient;
  let operations: Operation[];

  beforeAll(async () => {
    app = await startTestApp();
    anonymous = new ApiClient(app.url);
    admin = new ApiClient(app.url);
    // The first account is the admin, so admin-only routes reach their input checks too.
    expect((await admin.register()).role).toBe('admin');
    const document = await anonymous.get<OpenApiDocument>('/api/docs/openapi.json');
    expect(document.status).toBe(200);
    operations = operationsOf(document.body);
  });
  afterAll(() => app?.close());

  it('finds the routes (the document is not empty) and every public route it allows', () => {
    expect(operations.length).toBeGreaterThan(30);
    const documented = new Set(operations.map(key));
    for (const route of PUBLIC_ROUTES) expect(documented, `${route} is listed as public but no longer exists`).toContain(route);
  });

  it('documents the error body on every route, and 401 on exactly the routes not listed as public', async () => {
    expect(new Set(operations.filter((o) => o.public).map(key))).toEqual(PUBLIC_ROUTES);
    for (const op of operations) {
      expect(op.responses, key(op)).toContain('default');
      expect(op.responses.includes('401'), key(op)).toBe(!PUBLIC_ROUTES.has(key(op)));
      if (op.hasJsonBody) expect(op.responses, key(op)).toContain('400');
    }
    const document = (await anonymous.get('/api/docs/openapi.json')).body;
    expect(document.components.schemas.ApiErrorBody.properties.error.properties.code.enum).toEqual(expect.arrayContaining(['VALIDATION_FAILED', 'RATE_LIMITED', 'INTERNAL']));
  });

  it('answers 401 UNAUTHORIZED without a session on every route but the listed public ones', async () => {
    const unexpected: string[] = [];
    for (const op of operations.filter((o) => !PUBLIC_ROUTES.has(key(o)))) {
      const response = await anonymous.request(op.method, op.url, op.hasJsonBody ? {} : undefined);
      if (response.status !== 401 || response.body?.error?.code !== 'UNAUTHORIZED') unexpected.push(`${key(op)} → ${response.status}`);
    }
    expect(unexpected).toEqual([]);
  });

  it('lets the listed public routes in without a session', async () => {
    for (const op of operations.filter((o) => PUBLIC_ROUTES.has(key(o)))) {
      const response = await anonymous.request(op.method, op.url, op.hasJsonBody ? {} : undefined);
      expect(response.status, key(op)).not.toBe(401);
      expect(response.status, key(op)).toBeLessThan(500);
    }
  });

  it('answers 400 VALIDATION_FAILED to a JSON body that is not the object it expects, on every route that takes one', async () => {
    const withBody = operations.filter((o) => o.hasJsonBody);
    expect(withBody.length).toBeGreaterThan(10);
    const unexpected: string[] = [];
    for (const op of withBody) {
      for (const body of [[], ['not', 'an', 'object']]) {
        const response = await admin.request(op.method, op.url, body);
        if (response.status !== 400 || response.body?.error?.code !== 'VALIDATION_FAILED') unexpected.push(`${key(op)} ${JSON.stringify(body)} → ${response.status}`);
      }
    }
    expect(unexpected).toEqual([]);
  });

  it('answers 400 VALIDATION_FAILED to a query parameter outside its allowed values, on every route that documents one', async () => {
    const unexpected: string[] = [];
    let checked = 0;
    for (const op of operations) {
      for (const param of op.query.filter((p) => p.schema.enum || p.schema.type === 'integer' || p.schema.type === 'number')) {
        checked++;
        const response = await admin.request(op.method, `${op.url}?${encodeURIComponent(param.name)}=not-an-allowed-value`);
        if (response.status !== 400 || response.body?.error?.code !== 'VALIDATION_FAILED') unexpected.push(`${key(op)} ?${param.name} → ${response.status}`);
      }
    }
    expect(checked, 'GET /api/connections/{id}/schema?refresh=… at least').toBeGreaterThan(0);
    expect(unexpected).toEqual([]);
  });
});
