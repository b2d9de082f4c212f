/**
 * Bounded results, measured (issue "Security I", done-when): the built app runs as its own process on the embedded
 * default (fresh DATA_DIR, generated Demo store); one `SQL:` message on the Demo store returns three 100 MB values;
 * then the thread is reloaded and takes the next message. Prints the answer's size, the API process's peak RSS
 * (VmHWM), the SQLite child's peak RSS, and how much DATA_DIR grew, against the targets.
 *
 *   npm run build && npm run bench:bounds        (BENCH_VALUE_MB=100 by default)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiClient } from '../test/support/api-client.js';
import { streamMessage } from '../test/support/sse-client.js';
import { fmt, startServer } from './bench-util.js';

const VALUE_MB = Number(process.env.BENCH_VALUE_MB ?? 100);
const TARGET_RSS_MB = 1536;
const TARGET_GROWTH_MB = 50;

function value(letter: string): string {
  // hex() doubles the length: 50,000,000 zero bytes → 100,000,000 characters.
  return `replace(hex(zeroblob(${(VALUE_MB * 1_000_000) / 2})), '0', '${letter}')`;
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
}

/** The server's child processes (the SQLite process of each open SQLite connection). */
function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(full) : fs.statSync(full).size;
  }
  return total;
}

const mb = (bytes: number) => bytes / 1_000_000;

/** The first start generates the Demo store; on a busy machine that outlasts startServer's own wait. */
async function waitForHealth(url: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer ${url}/api/health within ${timeoutMs / 1000} s`);
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-bench-bounds-'));
  // Producing 300 MB inside SQLite is CPU work that a busy machine stretches past the default 30 s; memory and
  // storage are measured here, not speed.
  const server = await startServer({ DATA_DIR: dataDir, STATEMENT_TIMEOUT_MS: '600000', LLM_STALL_TIMEOUT_MS: '660000' });
  const pid = server.child.pid!;
  try {
    await waitForHealth(server.url);
    const api = new ApiClient(server.url);
    await api.register();
    const demo = ((await api.get('/api/connections')).body as { id: string; is_demo: boolean }[]).find((c) => c.is_demo);
    if (!demo) throw new Error('no Demo store connection: is DEMO_DATABASE off?');
    const threadId = (await api.post('/api/chat', { connection_id: demo.id })).body.thread_id as string;
    const rssBefore = peakRssMb(pid);
    const dataBefore = dirBytes(dataDir);

    const sql = `SQL: SELECT ${value('x')} AS a, ${value('y')} AS b, ${value('z')} AS c`;
    const started = performance.now();
    const answer = await streamMessage(server.url, api.token!, threadId, sql);
    const answerMs = performance.now() - started;
    const result = answer.events.find((e) => e.type === 'tool_result')?.data.content as { type: string; rows?: Record<string, string>[]; code?: string; message?: string };
    if (result?.type !== 'sql_result') throw new Error(`the query did not answer with a table: ${JSON.stringify(result)}`);

    const reload = await api.get(`/api/chat/${threadId}`);
    const next = await streamMessage(server.url, api.token!, threadId, 'SQL: SELECT count(*) AS orders FROM orders');
    const nextResult = next.events.find((e) => e.type === 'tool_result')?.data.content as { rows?: unknown[] };
    const reloadAfter = await api.get(`/api/chat/${threadId}`);

    const serverPeak = peakRssMb(pid);
    const childPeaks = childrenOf(pid).map(peakRssMb);
    const growth = dirBytes(dataDir) - dataBefore;
    const cell = result.rows![0].a;

    console.log(`\nBounded results — three ${VALUE_MB} MB values from the Demo store (SQLite), one SQL: message\n`);
    console.log('| measurement | result |');
    console.log('|---|---|');
    console.log(`| answer (SSE bytes) | ${fmt(mb(Buffer.byteLength(answer.raw)), 3)} MB in ${fmt(answerMs / 1000, 2)} s |`);
    console.log(`| a cell as answered | ${Buffer.byteLength(cell).toLocaleString('en-US')} bytes, ends "${cell.slice(-32)}" |`);
    console.log(`| thread reload | HTTP ${reload.status}, ${fmt(mb(Buffer.byteLength(JSON.stringify(reload.body))), 3)} MB |`);
    console.log(`| next message | ${next.events.at(-1)?.type} (${JSON.stringify(nextResult?.rows)}); reload after it: HTTP ${reloadAfter.status} |`);
    console.log(`| API process peak RSS (VmHWM) | ${fmt(serverPeak, 0)} MB (${fmt(rssBefore, 0)} MB before the message) |`);
    console.log(`| SQLite child process peak RSS | ${childPeaks.length ? childPeaks.map((p) => `${fmt(p, 0)} MB`).join(', ') : '(exited)'} |`);
    console.log(`| DATA_DIR growth | ${growth.toLocaleString('en-US')} bytes (${fmt(mb(growth), 2)} MB) |`);
    const rssMet = serverPeak < TARGET_RSS_MB;
    const growthMet = mb(growth) < TARGET_GROWTH_MB;
    const works = reload.status === 200 && reloadAfter.status === 200 && next.events.at(-1)?.type === 'end';
    console.log(`\nTargets: API peak RSS < 1.5 GB — ${rssMet ? 'met' : 'NOT met'}; DATA_DIR growth < ${TARGET_GROWTH_MB} MB — ${growthMet ? 'met' : 'NOT met'}; thread loads and takes the next message — ${works ? 'met' : 'NOT met'}`);
    if (!rssMet || !growthMet || !works) process.exitCode = 1;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
