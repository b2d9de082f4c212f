import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedPath } from '@aigis/test-support/env';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
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
  /** The success status and the body schema documented for it (none for a 204). */
  success: { status: number; contentType?: string; schema?: object } | null;
  query: { name: string; schema: { type?: string; enum?: unknown[] } }[];
}

type OpenApiDocument = {
  paths: Record<
    string,
    Record<string, { requestBody?: { content?: Record<string, unknown> }; parameters?: { in: string; name: string; schema?: object }[]; responses?: Record<string, { content?: Record<string, { schema?: object }> }>; 'x-public'?: boolean }>
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
      success: successOf(operation.responses ?? {}),
      query: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: (p.schema ?? {}) as Operation['query'][number]['schema'] })),
    })),
  );
}

function successOf(responses: Record<string, { content?: Record<string, { schema?: object }> }>): Operation['success'] {
  const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code));
  if (!status) return null;
  const [contentType, media] = Object.entries(responses[status]?.content ?? {})[0] ?? [];
  return { status: Number(status), contentType, schema: media?.schema };
}

const key = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

/** The documented operation a concrete request reached: `/api/chat/abc/model` → `/api/chat/{thread_id}/model`. */
function operationFor(operations: Operation[], method: string, url: string): Operation | undefined {
  const path = url.split('?')[0]!;
  const matches = operations.filter((op) => op.method === method && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
  // A literal segment wins over a parameter (`/connections/sqlite-files` over `/connections/{id}`).
  return matches.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))[0];
}

describe('every route of the OpenAPI document', () => {
  let app: TestApp;
  let anonymous: ApiClient;
  let admin: ApiClient;
  let operations: Operation[];

  beforeAll(async () => {
    // A SQLite database under the root, for the routes that read a connection.
    const sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-routes-'));
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
    app = await startTestApp({ SQLITE_ROOT: sqliteRoot });
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

  it('documents a success answer for every route: its status, and a body schema unless it is 204', () => {
    const missing = operations.filter((op) => !op.success || (op.success.status !== 204 && !op.success.schema)).map(key);
    expect(missing).toEqual([]);
    expect(operations.filter((op) => op.success?.status === 204).length).toBeGreaterThan(5);
  });

  it('answers what it documents: real responses of a representative set of routes validate against their success schema', async () => {
    const checked = new Set<string>();
    const problems: string[] = [];
    /** Sends the request, then checks the answer against the document's success schema for that route. */
    const call = async <T = any>(client: ApiClient, method: string, url: string, body?: unknown): Promise<T> => {
      const response = await client.request(method, url, body);
      const op = operationFor(operations, method, url);
      if (!op?.success) {
        problems.push(`${method} ${url}: not in the document`);
        return response.body as T;
      }
      checked.add(key(op));
      if (response.status !== op.success.status) problems.push(`${key(op)} → ${response.status} (documented ${op.success.status}): ${JSON.stringify(response.body).slice(0, 200)}`);
      else if (op.success.schema && op.success.contentType === 'application/json') {
        const parsed = z.fromJSONSchema(op.success.schema as never, { defaultTarget: 'openapi-3.0' }).safeParse(response.body);
        if (!parsed.success) problems.push(`${key(op)}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      }
      return response.body as T;
    };

    await call(anonymous, 'GET', '/api/health');
    await call(anonymous, 'GET', '/api/auth/registration');
    await call(admin, 'GET', '/api/auth/session');
    await call(admin, 'GET', '/api/auth/me');
    await call(admin, 'GET', '/api/models');
    await call(admin, 'GET', '/api/models/providers');
    await call(admin, 'GET', '/api/admin/users');
    await call(admin, 'GET', '/api/admin/settings');
    await call(admin, 'POST', '/api/admin/invites', {});
    await call(admin, 'GET', '/api/admin/invites');
    await call(admin, 'GET', '/api/admin/sqlite-grants');
    await call(admin, 'GET', '/api/connections/sqlite-files');
    const { id } = await call<{ id: string }>(admin, 'POST', '/api/connections', { name: 'Chinook', dialect: 'sqlite', database: 'chinook.sqlite' });
    await call(admin, 'GET', '/api/connections');
    await call(admin, 'GET', `/api/connections/${id}`);
    await call(admin, 'GET', `/api/connections/${id}/schema`);
    await call(admin, 'POST', `/api/connections/${id}/test`);
    await call(admin, 'POST', `/api/connections/${id}/query`, { sql: 'SELECT 1 AS one' });
    await call(admin, 'PUT', `/api/connections/${id}/knowledge/instructions`, { text: 'Amounts are in cents.' });
    await call(admin, 'POST', `/api/connections/${id}/knowledge/glossary`, { term: 'MRR', definition: 'Monthly recurring revenue' });
    await call(admin, 'GET', `/api/connections/${id}/knowledge/glossary`);
    await call(admin, 'GET', `/api/connections/${id}/knowledge`);
    await call(admin, 'GET', `/api/connections/${id}/knowledge/export`);
    await call(admin, 'GET', `/api/connections/${id}/knowledge/learnings`);
    await call(admin, 'POST', `/api/connections/${id}/knowledge/examples`, { question: 'How many artists?', sql: 'SELECT count(*) AS n FROM Artist' });
    await call(admin, 'GET', `/api/connections/${id}/knowledge/examples`);
    await call(admin, 'GET', `/api/connections/${id}/knowledge/examples/search?q=artists`);
    await call(admin, 'PUT', `/api/connections/${id}/knowledge/tables`, { table: 'Artist', description: 'Who recorded the albums' });
    const thread = await call<{ thread_id: string }>(admin, 'POST', '/api/chat', { title: 'Contract' });
    await call(admin, 'POST', `/api/chat/${thread.thread_id}/connection`, { connection_id: id });
    await call(admin, 'GET', '/api/chat');
    await call(admin, 'GET', `/api/chat/${thread.thread_id}`);
    await call(admin, 'PATCH', `/api/chat/${thread.thread_id}`, { title: 'Contract, renamed' });
    await call(admin, 'GET', `/api/chat/${thread.thread_id}/model`);
    await call(admin, 'GET', `/api/chat/${thread.thread_id}/state`);
    await call(admin, 'DELETE', `/api/chat/${thread.thread_id}`);

    expect(problems).toEqual([]);
    expect(checked.size).toBeGreaterThanOrEqual(30);
  });
});
