/**
 * Streaming benchmark: run with `npm run bench:stream` after `npm run build`.
 * The API runs as its own process against the scripted OpenAI-compatible upstream on this machine and
 * PostgreSQL Chinook. Every upstream token carries the time the fake sent it, so the delay our stack
 * adds (upstream → API → graph → SSE → client) is measured per token on one clock.
 *
 * It prints: server CPU per relayed token and per turn (also under another Node.js given in
 * BENCH_COMPARE_NODE, in server mode, for a like-for-like comparison), the 100-conversation runs (burst
 * and staggered) against their targets, the capacity (the largest number of concurrent conversations
 * relayed with added p99 inter-chunk delay under 10 ms, searched over N), and whether the API process
 * lived through it all (Node 24 once aborted here under better-sqlite3 12).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StreamEvent } from '@aigis/contracts';
import { ApiClient } from '../test/support/api-client.js';
import { TEST_PG_URL } from '@aigis/test-support/env';
import { createPgDatabase, loadPgChinook } from '../test/support/fixtures.js';
import { streamMessage } from '../test/support/sse-client.js';
import { fmt, median, percentile, processStats, startServer } from './bench-util.js';
import { grouped, monotonicUs, readProfile, summarize } from './cpu-profile.js';
import type { UpstreamScript } from './stream-upstream.process.js';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100);
const ANSWER_TOKENS = Number(process.env.BENCH_TOKENS ?? 200);
const TOKENS_PER_SECOND = 100;
const RELAY_TOKENS = 2000;
const STAGGER_MS = Number(process.env.BENCH_STAGGER_MS ?? 1000);
const STAMPED = /⟦(\d+\.\d+)⟧/g;
const TARGET_TTFC_P50_MS = 50;
const TARGET_INTER_P99_MS = 50;
const CAPACITY_INTER_P99_MS = 10;
const CAPACITY_GOAL = 50;
const CAPACITY_MAX = Number(process.env.BENCH_CAPACITY_MAX ?? 200);

interface TurnTiming {
  /** Milliseconds from sending the message to the first tool_call, tool_result, chunk, and to end. */
  phases: [number, number, number, number];
  ok: boolean;
  /** When the message was sent (ms on the shared clock). */
  started: number;
  error?: string;
  tokens: number;
  firstChunkAdded: number;
  perChunkAdded: number[];
  interChunkAdded: number[];
}

/** The fake upstream in its own process; `use` switches what it answers and waits for the switch. */
async function startUpstream(): Promise<{ url: string; child: ChildProcess; use(script: UpstreamScript): Promise<void>; close(): Promise<void> }> {
  const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'stream-upstream.process.js'), { stdio: 'inherit' });
  const next = () => new Promise<Record<string, unknown>>((resolve) => child.once('message', (m) => resolve(m as Record<string, unknown>)));
  const { url } = (await next()) as { url: string };
  return {
    url,
    child,
    async use(script) {
      const ack = next();
      child.send({ script });
      await ack;
    },
    close: () => new Promise((resolve) => (child.once('exit', () => resolve()), child.send({ close: true }))),
  };
}

/** Reads the send stamps back out of the chunks as they arrive. */
function measure(events: StreamEvent[], times: number[], started: number): TurnTiming {
  const sent: number[] = [];
  const received: number[] = [];
  events.forEach((event, i) => {
    if (event.type !== 'chunk') return;
    for (const match of event.data.content.matchAll(STAMPED)) {
      sent.push(Number(match[1]));
      received.push(started + times[i]);
    }
  });
  const error = events.find((e) => e.type === 'error');
  const perChunk = sent.map((s, i) => received[i] - s);
  const inter = sent.slice(1).map((s, i) => received[i + 1] - received[i] - (s - sent[i]));
  const at = (type: string) => times[events.findIndex((e) => e.type === type)] ?? NaN;
  return {
    started,
    phases: [at('tool_call'), at('tool_result'), at('chunk'), at('end')],
    ok: !error && events.at(-1)?.type === 'end',
    error: error ? JSON.stringify(error.data) : undefined,
    tokens: sent.length,
    firstChunkAdded: perChunk[0] ?? NaN,
    perChunkAdded: perChunk,
    interChunkAdded: inter,
  };
}

/** The largest number of [start, end] intervals that overlap at one instant. */
function peakOverlap(intervals: [number, number][]): number {
  const edges = intervals.filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b)).flatMap(([a, b]): [number, number][] => [[a, 1], [b, -1]]);
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (now += d));
  return peak;
}

interface Bench {
  fake: Awaited<ReturnType<typeof startUpstream>>;
  pgUrl: string;
}

interface Target {
  url: string;
  pid: number;
  token: string;
  connectionId: string;
  threads: string[];
}

/** New threads, so that every load run starts from the same short history. */
async function freshThreads(target: Target, count: number): Promise<string[]> {
  const api = new ApiClient(target.url, target.token);
  const threads: string[] = [];
  for (let i = 0; i < count; i++) threads.push((await api.post('/api/chat', { model: 'qwen', connection_id: target.connectionId })).body.thread_id);
  return threads;
}

/** An account, the Chinook connection and `count` threads on a running server. */
async function prepare(url: string, pid: number, bench: Bench, count: number): Promise<Target> {
  const api = new ApiClient(url);
  await api.register();
  const connection = (await api.post('/api/connections', { name: 'Chinook', url: bench.pgUrl })).body;
  const threads: string[] = [];
  for (let i = 0; i < count; i++) threads.push((await api.post('/api/chat', { model: 'qwen', connection_id: connection.id })).body.thread_id);
  return { url, pid, token: api.token!, connectionId: connection.id, threads };
}

async function turn(target: Target, threadId: string, question: string): Promise<TurnTiming> {
  const started = performance.timeOrigin + performance.now();
  try {
    const answer = await streamMessage(target.url, target.token, threadId, question);
    return measure(answer.events, answer.times, started);
  } catch (error) {
    return { started, phases: [NaN, NaN, NaN, NaN], ok: false, error: (error as Error).message, tokens: 0, firstChunkAdded: NaN, perChunkAdded: [], interChunkAdded: [] };
  }
}

interface CpuCosts {
  /** The one-at-a-time turns on the monotonic clock (µs), for BENCH_PROFILE. */
  turnWindow: [number, number];
  perTokenUs: number;
  relayed: number;
  relayCpuMs: number;
  perTurnMs: number;
  idle: TurnTiming[];
}

/** 1. Per-token CPU: long answers relayed as fast as the fake sends. 2. Per-turn CPU, one at a time. */
async function cpuCosts(target: Target, bench: Bench): Promise<CpuCosts> {
  await bench.fake.use({ tokens: 20, tokensPerSecond: 0, withTool: true });
  await Promise.all(target.threads.slice(0, 5).map((t) => turn(target, t, 'warm up: how many tracks?')));
  await bench.fake.use({ tokens: RELAY_TOKENS, tokensPerSecond: 0, withTool: false });
  const cpuBefore = processStats(target.pid).cpuMs;
  const relay = await Promise.all(target.threads.slice(0, 10).map((t) => turn(target, t, 'relay')));
  const relayCpuMs = processStats(target.pid).cpuMs - cpuBefore;
  const relayed = relay.reduce((n, r) => n + r.tokens, 0);

  await bench.fake.use({ tokens: 20, tokensPerSecond: TOKENS_PER_SECOND, withTool: true });
  const idle: TurnTiming[] = [];
  const idleCpuBefore = processStats(target.pid).cpuMs;
  const windowStart = monotonicUs();
  for (const t of target.threads.slice(0, 20)) idle.push(await turn(target, t, 'how many tracks are there?'));
  const turnWindow: [number, number] = [windowStart, monotonicUs()];
  const perTurnMs = (processStats(target.pid).cpuMs - idleCpuBefore) / idle.length;
  return { turnWindow, perTokenUs: (relayCpuMs * 1000) / relayed, relayed, relayCpuMs, perTurnMs, idle };
}

interface LoadResult {
  n: number;
  errors: TurnTiming[];
  peak: number;
  ttfc: number[];
  perChunk: number[];
  inter: number[];
  load: TurnTiming[];
  wallMs: number;
}

/** N conversations (ask_database on Chinook, then a streamed answer) sent at once or `spacing` ms apart. */
async function loadRun(target: Target, n: number, spacing: number): Promise<LoadResult> {
  const threads = await freshThreads(target, n);
  const wall = performance.now();
  const load = await Promise.all(
    threads.map(async (t, i) => {
      if (spacing) await new Promise((resolve) => setTimeout(resolve, i * spacing));
      return turn(target, t, 'how many tracks are there?');
    }),
  );
  return {
    n,
    load,
    wallMs: performance.now() - wall,
    errors: load.filter((r) => !r.ok || r.tokens !== ANSWER_TOKENS),
    peak: peakOverlap(load.map((r) => [r.started + r.phases[2], r.started + r.phases[3]])),
    ttfc: load.map((r) => r.firstChunkAdded).filter(Number.isFinite),
    perChunk: load.flatMap((r) => r.perChunkAdded),
    inter: load.flatMap((r) => r.interChunkAdded),
  };
}

/**
 * The largest N whose staggered run keeps the added p99 inter-chunk delay under the bound with no error:
 * doubling from 10, then bisecting (each N measured once: p99 is noisy near the edge, so the figure is an
 * estimate within a few conversations).
 */
async function capacity(target: Target, log: (line: string) => void): Promise<{ best: number; tried: [number, number, number][] }> {
  const tried: [number, number, number][] = [];
  const passes = async (n: number) => {
    const run = await loadRun(target, n, STAGGER_MS / n);
    const p99 = percentile(run.inter, 99);
    tried.push([n, p99, run.peak]);
    log(`  capacity: N=${n}: added p99 inter-chunk ${fmt(p99, 2)} ms, ${run.errors.length} errors, peak streaming ${run.peak}`);
    return run.errors.length === 0 && p99 < CAPACITY_INTER_P99_MS;
  };
  let good = 0;
  let bad = 0;
  for (let n = 10; n <= CAPACITY_MAX; n *= 2) {
    if (await passes(n)) good = n;
    else {
      bad = n;
      break;
    }
  }
  if (!bad) return { best: good, tried };
  while (bad - good > 1) {
    // Steps of 5 while the gap is wide (each try is a whole run), then of 1.
    let mid = Math.floor((good + bad) / 2);
    if (bad - good > 10) mid = Math.round(mid / 5) * 5;
    if (mid <= good || mid >= bad) mid = Math.floor((good + bad) / 2);
    if (await passes(mid)) good = mid;
    else bad = mid;
  }
  return { best: good, tried };
}

/** One user holds every conversation here: its per-user limits are lifted, the bench measures the stack. */
const ONE_USER_UNLIMITED = { USER_MAX_CONCURRENT_STREAMS: '100000', USER_MAX_CONCURRENT_QUERIES: '100000', USER_MAX_DB_CONNECTIONS: '20' };

async function main(): Promise<void> {
  console.log(`Aigis stream benchmark — Node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`);
  const db = await createPgDatabase('bench_stream');
  const storage = await createPgDatabase('bench_storage');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-bench-'));
  const fake = await startUpstream();
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  try {
    await loadPgChinook(db);
    const pgUrl = new URL(TEST_PG_URL);
    pgUrl.pathname = `/${db.name}`;
    const bench: Bench = { fake, pgUrl: pgUrl.toString() };
    const capacityMax = CAPACITY_MAX;
    const workers = process.env.BENCH_WORKERS ?? '1';
    console.log(`API workers: ${workers} (BENCH_WORKERS), ${CONVERSATIONS} conversations, ${ANSWER_TOKENS} tokens at ${TOKENS_PER_SECOND} tokens/s`);
    // BENCH_PROFILE=1: the server runs under --cpu-prof and the one-at-a-time turns are broken down by owner.
    const profileDir = process.env.BENCH_PROFILE === '1' ? fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-prof-')) : undefined;
    const server = await startServer({ DATA_DIR: dataDir, LM_STUDIO_ENDPOINT: fake.url, DEFAULT_MODEL: 'qwen3-8b', POOL_MAX: '20', DEMO_DATABASE: 'false', WORKERS: workers, ...ONE_USER_UNLIMITED }, process.execPath, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
    servers.push(server);
    const target = await prepare(server.url, server.child.pid!, bench, 20);

    const rows: [string, string][] = [];
    const verdicts: string[] = [];
    // BENCH_ONLY_LOAD=1 skips the CPU phases (to profile the concurrent run alone).
    const onlyLoad = process.env.BENCH_ONLY_LOAD === '1';
    let turnWindow: [number, number] | undefined;
    if (!onlyLoad) {
      const costs = await cpuCosts(target, bench);
      turnWindow = costs.turnWindow;
      rows.push(
        ['server CPU per relayed token (10 × 2,000 tokens, unpaced)', `${fmt(costs.perTokenUs, 1)} µs (${costs.relayed} tokens, ${fmt(costs.relayCpuMs, 0)} ms CPU)`],
        ['server CPU per turn (ask_database + 20-token answer, one at a time)', `${fmt(costs.perTurnMs, 1)} ms`],
        ['added time to first chunk, idle (median / p95 of 20)', `${fmt(median(costs.idle.map((r) => r.firstChunkAdded)), 2)} / ${fmt(percentile(costs.idle.map((r) => r.firstChunkAdded), 95), 2)} ms`],
      );
    } else {
      await fake.use({ tokens: 20, tokensPerSecond: 0, withTool: true });
      await Promise.all(target.threads.slice(0, 5).map((t) => turn(target, t, 'warm up: how many tracks?')));
    }

    // 100 concurrent conversations, two arrival patterns: a burst (every message sent in the same
    // millisecond, the worst case) and staggered (one message every BENCH_STAGGER_MS / N ms, so that at
    // the peak all of them are streaming at once but their turns are not in lockstep, as with people typing).
    await fake.use({ tokens: ANSWER_TOKENS, tokensPerSecond: TOKENS_PER_SECOND, withTool: true });
    const patterns = (process.env.BENCH_PATTERNS ?? 'burst,staggered').split(',').filter(Boolean);
    for (const pattern of patterns) {
      const spacing = pattern === 'burst' ? 0 : STAGGER_MS / CONVERSATIONS;
      const before = processStats(server.child.pid!);
      const upstreamBefore = processStats(fake.child.pid!).cpuMs;
      const clientsBefore = process.cpuUsage();
      const run = await loadRun(target, CONVERSATIONS, spacing);
      const after = processStats(server.child.pid!);
      const upstreamCpu = processStats(fake.child.pid!).cpuMs - upstreamBefore;
      const clientsCpu = process.cpuUsage(clientsBefore);
      const title = pattern === 'burst' ? `${CONVERSATIONS} concurrent conversations, burst (all sent at once)` : `${CONVERSATIONS} concurrent conversations, staggered (one every ${fmt(spacing, 0)} ms)`;
      rows.push(
        [title, ''],
        ['  errors', `${run.errors.length}${run.errors.length ? ` (${run.errors[0].error ?? `${run.errors[0].tokens} tokens`})` : ''}`],
        ['  conversations streaming at the same time (peak)', `${run.peak} of ${CONVERSATIONS}`],
        ['  added time to first chunk (p50 / p95 / p99)', `${fmt(median(run.ttfc), 2)} / ${fmt(percentile(run.ttfc, 95), 2)} / ${fmt(percentile(run.ttfc, 99), 2)} ms`],
        ['  added latency per chunk (p50 / p95 / p99)', `${fmt(median(run.perChunk), 2)} / ${fmt(percentile(run.perChunk, 95), 2)} / ${fmt(percentile(run.perChunk, 99), 2)} ms`],
        ['  added inter-chunk delay (p50 / p95 / p99)', `${fmt(median(run.inter), 2)} / ${fmt(percentile(run.inter, 95), 2)} / ${fmt(percentile(run.inter, 99), 2)} ms`],
        ['  median time to tool_call / tool_result / first chunk / end', [0, 1, 2, 3].map((i) => fmt(median(run.load.map((r) => r.phases[i])), 0)).join(' / ') + ' ms'],
        ['  chunks relayed / wall time', `${run.perChunk.length} / ${fmt(run.wallMs / 1000, 2)} s`],
        ['  server CPU during the run', `${fmt(after.cpuMs - before.cpuMs, 0)} ms (${fmt(((after.cpuMs - before.cpuMs) / run.wallMs) * 100, 0)}% of one core)`],
        ['  CPU of the fake upstream / of the clients', `${fmt(upstreamCpu, 0)} ms / ${fmt((clientsCpu.user + clientsCpu.system) / 1000, 0)} ms (separate processes)`],
        ['  server memory: RSS before → after, peak', `${fmt(before.rssMb, 0)} → ${fmt(after.rssMb, 0)} MB, peak ${fmt(after.peakRssMb, 0)} MB`],
      );
      const pass = run.errors.length === 0 && median(run.ttfc) < TARGET_TTFC_P50_MS && percentile(run.inter, 99) < TARGET_INTER_P99_MS;
      verdicts.push(
        `target 1, ${pattern} (0 errors, added TTFC p50 < ${TARGET_TTFC_P50_MS} ms, added p99 inter-chunk < ${TARGET_INTER_P99_MS} ms): ${pass ? 'met' : 'NOT met'} ` +
          `(${run.errors.length} errors, ${fmt(median(run.ttfc), 1)} ms, ${fmt(percentile(run.inter, 99), 1)} ms)`,
      );
    }

    if (process.env.BENCH_CAPACITY !== '0') {
      console.log(`capacity search (staggered over ${STAGGER_MS} ms, bound: added p99 inter-chunk < ${CAPACITY_INTER_P99_MS} ms):`);
      const { best } = await capacity(target, (line) => console.log(line));
      rows.push(['capacity: concurrent conversations with added p99 inter-chunk < 10 ms (one API process)', `${best}${best >= capacityMax ? '+' : ''}`]);
      verdicts.push(`target 2, capacity ≥ ${CAPACITY_GOAL} conversations: ${best >= CAPACITY_GOAL ? 'met' : 'NOT met'} (${best})`);
    }

    // Node 24 once aborted the API process here (better-sqlite3 12's finalizers): it must still be up.
    const alive = server.child.exitCode === null && server.child.signalCode === null && (await fetch(`${server.url}/api/health`).then((r) => r.ok, () => false));
    rows.push(['API process alive after the run', alive ? 'yes' : `NO (exit ${server.child.exitCode ?? server.child.signalCode})`]);

    // 3. The same CPU phases under each Node.js in one run, in server mode (PostgreSQL storage and
    //    checkpoints: nothing opens SQLite, whose addon needs Node 22+), one server at a time.
    const compareNode = process.env.BENCH_COMPARE_NODE;
    if (compareNode && !onlyLoad) {
      await server.stop();
      const storageUrl = new URL(TEST_PG_URL);
      storageUrl.pathname = `/${storage.name}`;
      for (const node of [compareNode, process.execPath]) {
        const version = execFileSync(node, ['--version']).toString().trim();
        const other = await startServer(
          { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-bench-')), DATABASE_URL: storageUrl.toString(), MASTER_ENCRYPTION_KEY: 'ef'.repeat(32), CONNECTION_ALLOW_HOSTS: '127.0.0.1,localhost', REGISTRATION: 'open', LM_STUDIO_ENDPOINT: fake.url, DEFAULT_MODEL: 'qwen3-8b', POOL_MAX: '20', DEMO_DATABASE: 'false', ...ONE_USER_UNLIMITED },
          node,
        );
        servers.push(other);
        const costs = await cpuCosts(await prepare(other.url, other.child.pid!, bench, 20), bench);
        rows.push([`Node ${version}, server mode: CPU per relayed token / per turn`, `${fmt(costs.perTokenUs, 1)} µs / ${fmt(costs.perTurnMs, 1)} ms`]);
        await other.stop();
      }
    }

    if (profileDir && turnWindow) {
      await server.stop();
      const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
      if (!file) throw new Error(`no CPU profile in ${profileDir}`);
      const summary = summarize(readProfile(path.join(profileDir, file)), ...turnWindow);
      const turns = 20;
      console.log(`\nWhere a turn's CPU goes (--cpu-prof, ${turns} one-at-a-time turns, ${fmt(summary.busyMs / turns, 1)} ms sampled per turn; profile in ${profileDir}):`);
      for (const [group, ms] of grouped(summary.byOwner)) console.log(`  ${fmt((ms / summary.busyMs) * 100, 1).padStart(5)}%  ${fmt(ms / turns, 1).padStart(6)} ms/turn  ${group}`);
      console.log('  by owner (top 20):');
      for (const [owner, ms] of summary.byOwner.slice(0, 20)) console.log(`    ${fmt((ms / summary.busyMs) * 100, 1).padStart(5)}%  ${owner}`);
      console.log('  by function, self time (top 25):');
      for (const [name, ms] of summary.byFunction.slice(0, 25)) console.log(`    ${fmt((ms / summary.busyMs) * 100, 1).padStart(5)}%  ${name}`);
      console.log('  our code, by function (top 15):');
      for (const [name, ms] of summary.byFunction.filter(([n]) => n.includes('[ours:')).slice(0, 15)) console.log(`    ${fmt((ms / summary.busyMs) * 100, 2).padStart(5)}%  ${name}`);
    }

    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [key, value] of rows) console.log(`${key.padEnd(width)}  ${value}`);
    for (const verdict of verdicts) console.log(verdict);
    if (!alive) process.exitCode = 1;
  } finally {
    for (const server of servers) await server.stop();
    await fake.close();
    await db.drop();
    await storage.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
