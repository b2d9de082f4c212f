import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPath } from '@aigis/test-support/env';
import { reply, startFakeOpenAI, type FakeOpenAI } from '@aigis/test-support/fake-openai';
import { ApiClient } from './support/api-client.js';
import { streamMessage } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * What reaches the model under a table policy and with a schema larger than the prompt budget, read from the
 * scripted model's request log (Chinook in SQLite; a budget Chinook does not fit in).
 */
describe('prompts under a table policy and a large schema', () => {
  let model: FakeOpenAI;
  let app: TestApp;
  let api: ApiClient;
  let connectionId: string;
  const sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-chat-policy-'));

  beforeAll(async () => {
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
    model = await startFakeOpenAI({ models: ['deepseek-chat'] });
    app = await startTestApp({ DEEPSEEK_API_KEY: 'sk-x', DEEPSEEK_BASE_URL: model.url, SQLITE_ROOT: sqliteRoot, SCHEMA_PROMPT_BUDGET: '1500' });
    api = new ApiClient(app.url);
    await api.register();
    connectionId = (await api.post('/api/connections', { name: 'Chinook', dialect: 'sqlite', database: 'chinook.sqlite' })).body.id;
  });

  afterAll(async () => {
    await app?.close();
    await model?.close();
    fs.rmSync(sqliteRoot, { recursive: true, force: true });
  });

  it('excluded tables never reach a prompt, even when excluded after the thread chose the connection, and the guard refuses them', async () => {
    const threadId = (await api.post('/api/chat', { model: 'deepseek' })).body.thread_id;
    await api.post(`/api/chat/${threadId}/connection`, { connection_id: connectionId });
    expect((await api.get(`/api/chat/${threadId}/state`)).body.db_schema).toMatch(/Employee/);
    expect((await api.patch(`/api/connections/${connectionId}`, { excluded_tables: ['Employee', 'Customer'] })).status).toBe(200);

    model.reset();
    model.script((request) => {
      if (request.tools.length === 0) return reply.text('```sql\nSELECT count(*) FROM Employee\n```');
      if (request.lastMessage?.role === 'user') return reply.toolCalls({ name: 'ask_database', args: { question: 'How many employees are there? Also list every Employee hire date.' } });
      return reply.text('That table is not available.');
    });
    const answer = await streamMessage(app.url, api.token!, threadId, 'How many employees (Employee table) do we have?');
    const toolResult = answer.events.find((e) => e.type === 'tool_result');
    expect(JSON.stringify(toolResult?.data)).toMatch(/table Employee is excluded/);

    const requests = model.completions();
    expect(requests.length).toBeGreaterThanOrEqual(3);
    for (const request of requests) {
      // Employee's and Customer's own columns, and their table blocks and list lines, in no system prompt.
      expect(request.system).not.toMatch(/HireDate|ReportsTo|Company|SupportRepId|## Employee|## Customer|- Employee \(|- Customer \(|→ Employee\.|→ Customer\./);
    }
    // describe_table cannot reach them either.
    model.reset();
    model.script((request) => {
      if (request.tools.length > 0 && request.lastMessage?.role === 'user') return reply.toolCalls({ name: 'describe_table', args: { table: 'Employee' } });
      return reply.text('No such table.');
    });
    const described = await streamMessage(app.url, api.token!, threadId, 'Describe the Employee table');
    const result = described.events.find((e) => e.type === 'tool_result');
    expect(JSON.stringify(result?.data)).toMatch(/No table named Employee/);
    expect(JSON.stringify(result?.data)).not.toMatch(/HireDate/);
    await api.patch(`/api/connections/${connectionId}`, { excluded_tables: [] });
  });

  it('beyond the budget, the tables the question names are in the prompt in full; the others by name', async () => {
    const threadId = (await api.post('/api/chat', { model: 'deepseek' })).body.thread_id;
    const bound = await api.post(`/api/chat/${threadId}/connection`, { connection_id: connectionId });
    expect(bound.body.markdown_mode).not.toBe('full');
    model.reset();
    model.script((request) => {
      if (request.tools.length === 0) return reply.text('```sql\nSELECT sum(UnitPrice * Quantity) AS total FROM InvoiceLine\n```');
      if (request.lastMessage?.role === 'user') return reply.toolCalls({ name: 'ask_database', args: { question: 'Total of UnitPrice * Quantity over InvoiceLine' } });
      return reply.text('Done.');
    });
    const answer = await streamMessage(app.url, api.token!, threadId, 'What is the total revenue in InvoiceLine?');
    expect(answer.events.some((e) => e.type === 'tool_result')).toBe(true);
    const [assistant, writer] = model.completions();
    for (const request of [assistant!, writer!]) {
      expect(request.system.length).toBeLessThan(1500 + 3000);
      expect(request.system).toContain('## InvoiceLine (table');
      expect(request.system).toMatch(/- UnitPrice NUMERIC/);
      expect(request.system).toMatch(/Other tables \(call describe_table/);
      expect(request.system).toMatch(/- Genre/);
    }
    expect(assistant!.toolNames).toContain('describe_table');
  });
});
