#!/usr/bin/env node
// A scripted stand-in for the Aigis API (in memory) that also serves frontend/dist with SPA fallback,
// for working on the web app and looking at it without the backend. Not used by tests.
//   node scripts/mock-api.mjs [port]        MOCK_NO_MODELS=1 → no model available
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const port = Number(process.argv[2] ?? process.env.PORT ?? 3000);
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const noModels = process.env.MOCK_NO_MODELS === '1';
const now = () => new Date().toISOString();
let seq = 1;
const id = (p) => `${p}_${(seq++).toString(36)}`;

const users = new Map(); // token -> user
const accounts = new Map(); // email -> {user, password}
const connections = new Map();
const threads = new Map();

const models = [
  { name: 'qwen3-8b', provider: 'lmstudio', model_id: 'qwen/qwen3-8b', available: !noModels, reason: noModels ? 'LMSTUDIO_BASE_URL is not set' : undefined, aliases: ['qwen'], capabilities: { tool_calling: true, context_window: 32768 } },
  { name: 'gpt-oss-20b', provider: 'lmstudio', model_id: 'openai/gpt-oss-20b', available: !noModels, reason: noModels ? 'LMSTUDIO_BASE_URL is not set' : undefined, aliases: ['gpt_oss', 'gpt-oss'], capabilities: { tool_calling: true, context_window: 131072 } },
  { name: 'deepseek-chat', provider: 'deepseek', model_id: 'deepseek-chat', available: false, reason: 'DEEPSEEK_API_KEY is not set', aliases: ['deepseek'], capabilities: { tool_calling: true, context_window: 65536 } },
  { name: 'gpt-4.1-mini', provider: 'openai', model_id: 'gpt-4.1-mini', available: false, reason: 'OPENAI_API_KEY is not set', aliases: [], capabilities: { tool_calling: true, context_window: 1000000 } },
];
const providers = [
  { provider: 'lmstudio', configured: !noModels, env: ['LMSTUDIO_BASE_URL'], hint: 'Any OpenAI-compatible local server, e.g. http://localhost:1234/v1' },
  { provider: 'deepseek', configured: false, env: ['DEEPSEEK_API_KEY'], hint: 'deepseek-chat' },
  { provider: 'openai', configured: false, env: ['OPENAI_API_KEY'], hint: 'gpt-4.1-mini and others' },
  { provider: 'anthropic', configured: false, env: ['ANTHROPIC_API_KEY'], hint: 'Claude models' },
  { provider: 'ollama', configured: false, env: ['OLLAMA_BASE_URL'], hint: 'e.g. http://localhost:11434' },
];

const demo = { id: 'conn_demo', name: 'Demo store', dialect: 'sqlite', host: null, port: null, database: 'demo/store.db', user: null, ssl: false, has_password: false, is_demo: true, created_at: now(), updated_at: now() };
connections.set(demo.id, demo);

const salesRows = Array.from({ length: 137 }, (_, i) => ({
  order_id: 1000 + i,
  customer: ['Ada, Inc.', 'Bob "the builder"', 'Chen Wei', 'Dana\nMultiline', null][i % 5],
  year: 2019 + (i % 6),
  total: Math.round((Math.sin(i) + 1.3) * 15000) / 100,
}));
const byYear = [2019, 2020, 2021, 2022, 2023, 2024].map((year) => ({ year: String(year), revenue: Math.round(salesRows.filter((r) => r.year === year).reduce((n, r) => n + r.total, 0)) }));

const schema = {
  dialect: 'sqlite',
  tables: [
    { schema: null, name: 'customers', kind: 'table', comment: null, row_estimate: 59, foreign_keys: [], sample_rows: [{ id: 1, name: 'Ada, Inc.', country: 'DE' }, { id: 2, name: 'Chen Wei', country: null }], columns: [
      { name: 'id', type: 'INTEGER', nullable: false, default: null, primary_key: true, comment: null },
      { name: 'name', type: 'TEXT', nullable: false, default: null, primary_key: false, comment: null },
      { name: 'country', type: 'TEXT', nullable: true, default: "'DE'", primary_key: false, comment: null } ] },
    { schema: null, name: 'orders', kind: 'table', comment: null, row_estimate: 4120, foreign_keys: [{ name: null, columns: ['customer_id'], referenced_schema: null, referenced_table: 'customers', referenced_columns: ['id'] }], sample_rows: salesRows.slice(0, 3), columns: [
      { name: 'id', type: 'INTEGER', nullable: false, default: null, primary_key: true, comment: null },
      { name: 'customer_id', type: 'INTEGER', nullable: false, default: null, primary_key: false, comment: null },
      { name: 'total', type: 'NUMERIC(10,2)', nullable: false, default: null, primary_key: false, comment: null } ] },
  ],
  markdown: '# schema', markdown_mode: 'full', introspected_at: now(), elapsed_ms: 42, catalog_queries: 3,
};

function send(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}
const fail = (res, status, code, message) => send(res, status, { error: { code, message } });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function readBody(req) {
  let text = '';
  for await (const c of req) text += c;
  return text ? JSON.parse(text) : {};
}

async function streamAnswer(req, res, thread, content) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  let closed = false;
  req.on('close', () => (closed = true));
  const emit = async (type, data, delay = 40) => {
    if (closed) return;
    res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
    await sleep(delay);
  };
  const msgs = thread.messages;
  msgs.push({ id: id('m'), role: 'user', content });
  if (thread.title === 'New thread') thread.title = content.slice(0, 48);
  thread.updated_at = now();

  const sqlMatch = /^\s*SQL:\s*([\s\S]*)$/i.exec(content);
  if (sqlMatch) {
    const sql = sqlMatch[1];
    const callId = id('call');
    await emit('tool_call', { id: callId, name: 'ask_database', args: { sql } }, 200);
    const result = /delete|update|insert|drop/i.test(sql)
      ? { type: 'error', code: 'SQL_REJECTED', message: 'Only read-only queries are allowed (found DELETE).', sql }
      : { type: 'sql_result', sql, columns: Object.keys(salesRows[0]), rows: salesRows, row_count: salesRows.length, truncated: true, elapsed_ms: 12 };
    msgs.push({ id: id('m'), role: 'assistant', content: '', tool_calls: [{ id: callId, name: 'ask_database', args: { sql } }] });
    msgs.push({ id: id('m'), role: 'tool', content: JSON.stringify(result), tool_call_id: callId, tool_name: 'ask_database', result });
    await emit('tool_result', { id: callId, name: 'ask_database', content: result });
    await emit('end', { full_response: '' });
    return res.end();
  }
  const model = models.find((m) => m.name === thread.model);
  if (!model || !model.available) {
    await emit('error', { error: `The model ${thread.model ?? '(none)'} is not available.`, code: 'MODEL_UNAVAILABLE' });
    return res.end();
  }
  const intro = `Let me look at **revenue by year** (model \`${thread.model}\`).`;
  for (const w of intro.split(/(?<= )/)) await emit('chunk', { content: w });
  const c1 = id('call');
  const sql = 'SELECT strftime(\'%Y\', ordered_at) AS year, SUM(total) AS revenue\nFROM orders\nGROUP BY 1\nORDER BY 1;';
  await emit('tool_call', { id: c1, name: 'ask_database', args: { question: 'revenue by year' } }, 900);
  const r1 = { type: 'sql_result', sql, columns: ['year', 'revenue'], rows: byYear, row_count: byYear.length, truncated: false, elapsed_ms: 8 };
  await emit('tool_result', { id: c1, name: 'ask_database', content: r1 });
  const c2 = id('call');
  await emit('tool_call', { id: c2, name: 'ask_analyst', args: { request: 'bar chart of revenue by year' } }, 900);
  const r2 = { type: 'vega_lite_spec', spec: { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', title: 'Revenue by year', mark: 'bar', data: { values: byYear }, encoding: { x: { field: 'year', type: 'ordinal' }, y: { field: 'revenue', type: 'quantitative' } } } };
  await emit('tool_result', { id: c2, name: 'ask_analyst', content: r2 });
  const outro = 'Revenue by year:\n\n| year | revenue |\n|---|---:|\n' + byYear.map((r) => `| ${r.year} | ${r.revenue} |`).join('\n') + '\n\n2024 was the **strongest** year. 数据 🚀';
  let written = '';
  for (const w of outro.split(/(?<= )/)) {
    if (closed) break;
    written += w;
    await emit('chunk', { content: w }, 60);
  }
  msgs.push({ id: id('m'), role: 'assistant', content: intro, tool_calls: [{ id: c1, name: 'ask_database', args: { question: 'revenue by year' } }] });
  msgs.push({ id: id('m'), role: 'tool', content: JSON.stringify(r1), tool_call_id: c1, tool_name: 'ask_database', result: r1 });
  msgs.push({ id: id('m'), role: 'assistant', content: '', tool_calls: [{ id: c2, name: 'ask_analyst', args: { request: 'bar chart of revenue by year' } }] });
  msgs.push({ id: id('m'), role: 'tool', content: JSON.stringify(r2), tool_call_id: c2, tool_name: 'ask_analyst', result: r2 });
  if (written) msgs.push({ id: id('m'), role: 'assistant', content: written });
  await emit('end', { full_response: written });
  res.end();
}

async function api(req, res, path) {
  const m = req.method;
  if (path === '/health') return send(res, 200, { status: 'ok' });
  if (path === '/auth/register' || path === '/auth/login') {
    const { email, password } = await readBody(req);
    if (path.endsWith('register')) {
      if (accounts.has(email)) return fail(res, 409, 'EMAIL_TAKEN', 'An account with this email exists.');
      accounts.set(email, { user: { id: id('u'), email }, password });
    }
    const acc = accounts.get(email);
    if (!acc || acc.password !== password) return fail(res, 401, 'INVALID_CREDENTIALS', 'Wrong email or password.');
    const token = id('tok');
    users.set(token, acc.user);
    return send(res, path.endsWith('register') ? 201 : 200, { token, user: acc.user });
  }
  const user = users.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
  if (!user) return fail(res, 401, 'UNAUTHORIZED', 'Sign in first.');
  if (path === '/auth/me') return send(res, 200, user);
  if (path === '/auth/logout') return send(res, 204);
  if (path === '/models') return send(res, 200, models);
  if (path === '/models/providers') return send(res, 200, providers);
  if (path === '/connections/sqlite-files') return send(res, 200, { root: '/data/sqlite', files: [{ path: 'demo/store.db', size_bytes: 1843200 }, { path: 'chinook.sqlite', size_bytes: 884736 }] });
  if (path === '/connections') {
    if (m === 'GET') return send(res, 200, [...connections.values()]);
    const b = await readBody(req);
    const c = { id: id('conn'), name: b.name, dialect: b.dialect, host: b.host ?? null, port: b.port ?? null, database: b.database ?? null, user: b.user ?? null, ssl: !!b.ssl, has_password: !!b.password, is_demo: false, created_at: now(), updated_at: now() };
    connections.set(c.id, c);
    return send(res, 201, c);
  }
  let mm = /^\/connections\/([^/]+)(\/(test|schema|query))?$/.exec(path);
  if (mm) {
    const c = connections.get(mm[1]);
    if (!c) return fail(res, 404, 'NOT_FOUND', 'No such connection.');
    if (mm[3] === 'test') { await sleep(300); return send(res, 200, { ok: true, server_version: c.dialect === 'sqlite' ? 'SQLite 3.46.1' : 'PostgreSQL 16.4', latency_ms: 7.4, read_only_role: c.dialect === 'sqlite', warnings: c.dialect === 'sqlite' ? [] : ['The role can write.'] }); }
    if (mm[3] === 'schema') { await sleep(200); return send(res, 200, schema); }
    if (m === 'GET') return send(res, 200, c);
    if (m === 'DELETE') { connections.delete(c.id); return send(res, 204); }
    if (m === 'PATCH') { const b = await readBody(req); const { password, ...rest } = b; Object.assign(c, rest, { has_password: c.has_password || !!password, updated_at: now() }); return send(res, 200, c); }
  }
  if (path === '/chat') {
    if (m === 'GET') return send(res, 200, [...threads.values()].map(({ messages: _messages, ...t }) => t).sort((a, b) => b.updated_at.localeCompare(a.updated_at)));
    const b = await readBody(req);
    const t = { thread_id: id('th'), title: b.title ?? 'New thread', model: b.model ?? null, connection_id: b.connection_id ?? null, created_at: now(), updated_at: now(), messages: [] };
    threads.set(t.thread_id, t);
    const { messages: _messages, ...summary } = t;
    return send(res, 201, summary);
  }
  mm = /^\/chat\/([^/]+)(\/(model|connection|message))?$/.exec(path);
  if (mm) {
    const t = threads.get(mm[1]);
    if (!t) return fail(res, 404, 'NOT_FOUND', 'No such thread.');
    const summary = () => { const { messages: _messages, ...s } = t; return s; };
    if (mm[3] === 'model') {
      if (m === 'POST') {
        const { name } = await readBody(req);
        const model = models.find((x) => x.name === name || x.aliases.includes(name));
        if (!model) return fail(res, 400, 'UNKNOWN_MODEL', `Unknown model. Valid: ${models.map((x) => x.name).join(', ')}`);
        if (!model.available) return fail(res, 409, 'MODEL_UNAVAILABLE', `${model.name}: ${model.reason}`);
        t.model = model.name;
      }
      return send(res, 200, { thread_id: t.thread_id, model: t.model, models: Object.fromEntries(models.map((x) => [x.name, x.available])) });
    }
    if (mm[3] === 'connection') { const { connection_id } = await readBody(req); t.connection_id = connection_id; await sleep(250); return send(res, 200, { thread_id: t.thread_id, connection_id, tables: 2, markdown_mode: 'full' }); }
    if (mm[3] === 'message') { const { content } = await readBody(req); return streamAnswer(req, res, t, content); }
    if (m === 'GET') return send(res, 200, t);
    if (m === 'PATCH') { const b = await readBody(req); if (b.title) t.title = b.title; return send(res, 200, summary()); }
    if (m === 'DELETE') { threads.delete(t.thread_id); return send(res, 204); }
  }
  return fail(res, 404, 'NOT_FOUND', `No route ${m} ${path}`);
}

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

createServer(async (req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  try {
    if (path.startsWith('/api/')) return await api(req, res, path.slice(4));
    let file = normalize(join(dist, path));
    if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) file = join(dist, 'index.html');
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  } catch (err) {
    console.error(err);
    if (!res.headersSent) fail(res, 500, 'INTERNAL', String(err));
    else res.end();
  }
}).listen(port, () => console.log(`mock API + dist on http://localhost:${port}`));
