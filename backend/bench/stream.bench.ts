/**
 * Streaming benchmark (issue "Models and agent"): run with `npm run bench:stream` after `npm run build`.
 * The API runs as its own process against the scripted OpenAI-compatible upstream on this machine and
 * PostgreSQL Chinook. Every upstream token carries the time the fake sent it, so the delay our stack
 * adds (upstream → API → graph → SSE → client) is measured per token on one clock.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StreamEvent } from '@aigis/contracts';
import { ApiClient } from '../test/support/api-client.js';
import { TEST_PG_URL } from '../test/support/env.js';
import { createPgDatabase, loadPgChinook } from '../test/support/fixtures.js';
import { streamMessage } from '../test/support/sse-client.js';
import { fmt, median, percentile, processStats, startServer } from './bench-util.js';
import type { UpstreamScript } from './stream-upstream.process.js';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 100);
const ANSWER_TOKENS = Number(process.env.BENCH_TOKENS ?? 200);
const TOKENS_PER_SECOND = 100;
const RELAY_TOKENS = 2000;
const STAGGER_MS = Number(process.env.BENCH_STAGGER_MS ?? 1000);
const STAMPED = /⟦(\d+\.\d+)⟧/g;

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

async function main(): Promise<void> {
  console.log(`Aigis stream benchmark — Node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`);
  const db = await createPgDatabase('bench_stream');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-bench-'));
  const fake = await startUpstream();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    await loadPgChinook(db);
    const workers = process.env.BENCH_WORKERS ?? '1';
    console.log(`API workers: ${workers} (BENCH_WORKERS), ${CONVERSATIONS} conversations, ${ANSWER_TOKENS} tokens at ${TOKENS_PER_SECOND} tokens/s`);
    server = await startServer({ DATA_DIR: dataDir, LM_STUDIO_ENDPOINT: fake.url, DEFAULT_MODEL: 'qwen3-8b', POOL_MAX: '20', DEMO_DATABASE: 'false', WORKERS: workers });
    const api = new ApiClient(server.url);
    await api.register();
    const pgUrl = new URL(TEST_PG_URL);
    pgUrl.pathname = `/${db.name}`;
    const connection = (await api.post('/api/connections', { name: 'Chinook', url: pgUrl.toString() })).body;
    const threads: string[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) threads.push((await api.post('/api/chat', { model: 'qwen', connection_id: connection.id })).body.thread_id);

    const turn = async (threadId: string, question: string): Promise<TurnTiming> => {
      const started = performance.timeOrigin + performance.now();
      try {
        const answer = await streamMessage(server!.url, api.token!, threadId, question);
        return measure(answer.events, answer.times, started);
      } catch (error) {
        return { started, phases: [NaN, NaN, NaN, NaN], ok: false, error: (error as Error).message, tokens: 0, firstChunkAdded: NaN, perChunkAdded: [], interChunkAdded: [] };
      }
    };

    // Warm-up: JIT, pools, schema cache.
    await fake.use({ tokens: 20, tokensPerSecond: 0, withTool: true });
    await Promise.all(threads.slice(0, 5).map((t) => turn(t, 'warm up: how many tracks?')));

    // BENCH_ONLY_LOAD=1 skips phases 1 and 2 (to profile the concurrent run alone).
    const onlyLoad = process.env.BENCH_ONLY_LOAD === '1';
    // 1. Per-token CPU: a few long answers relayed as fast as the fake can send (no tools).
    await fake.use({ tokens: RELAY_TOKENS, tokensPerSecond: 0, withTool: false });
    const relayThreads = threads.slice(0, 10);
    const cpuBefore = processStats(server.child.pid!).cpuMs;
    const relay = onlyLoad ? [] : await Promise.all(relayThreads.map((t) => turn(t, 'relay')));
    const relayCpu = processStats(server.child.pid!).cpuMs - cpuBefore;
    const relayed = relay.reduce((n, r) => n + r.tokens, 0);

    // 2. Time to first chunk, one conversation at a time (no load).
    await fake.use({ tokens: 20, tokensPerSecond: TOKENS_PER_SECOND, withTool: true });
    const idle: TurnTiming[] = [];
    const idleCpuBefore = processStats(server.child.pid!).cpuMs;
    for (const t of threads.slice(0, onlyLoad ? 0 : 20)) idle.push(await turn(t, 'how many tracks are there?'));

    const perConversationCpu = idle.length ? (processStats(server.child.pid!).cpuMs - idleCpuBefore) / idle.length : NaN;

    // 3. 100 concurrent conversations: ask_database on Chinook, then a streamed answer at 100 tokens/s.
    //    Two arrival patterns: a burst (every message sent in the same millisecond, the worst case),
    //    and staggered (one message every BENCH_STAGGER_MS / N ms, so that at the peak all of them are
    //    streaming at once but their turns are not in lockstep, as with people typing).
    await fake.use({ tokens: ANSWER_TOKENS, tokensPerSecond: TOKENS_PER_SECOND, withTool: true });
    const rows: [string, string][] = [
      ['server CPU per relayed token (10 × 2,000 tokens, unpaced)', `${fmt((relayCpu * 1000) / relayed, 1)} µs (${relayed} tokens, ${fmt(relayCpu, 0)} ms CPU)`],
      ['server CPU per conversation (ask_database + 20-token answer, one at a time)', `${fmt(perConversationCpu, 1)} ms`],
      ['added time to first chunk, idle (median / p95 of 20)', `${fmt(median(idle.map((r) => r.firstChunkAdded)), 2)} / ${fmt(percentile(idle.map((r) => r.firstChunkAdded), 95), 2)} ms`],
    ];
    const verdicts: string[] = [];
    const patterns = (process.env.BENCH_PATTERNS ?? 'burst,staggered').split(',').filter(Boolean);
    for (const pattern of patterns) {
      const spacing = pattern === 'burst' ? 0 : STAGGER_MS / CONVERSATIONS;
      const before = processStats(server.child.pid!);
      const upstreamBefore = processStats(fake.child.pid!).cpuMs;
      const clientsBefore = process.cpuUsage();
      const wall = performance.now();
      const load = await Promise.all(
        threads.map(async (t, i) => {
          if (spacing) await new Promise((resolve) => setTimeout(resolve, i * spacing));
          return turn(t, 'how many tracks are there?');
        }),
      );
      const wallMs = performance.now() - wall;
      const after = processStats(server.child.pid!);
      const upstreamCpu = processStats(fake.child.pid!).cpuMs - upstreamBefore;
      const clientsCpu = process.cpuUsage(clientsBefore);

      const errors = load.filter((r) => !r.ok || r.tokens !== ANSWER_TOKENS);
      const firstAdded = load.map((r) => r.firstChunkAdded).filter(Number.isFinite);
      const perChunk = load.flatMap((r) => r.perChunkAdded);
      const inter = load.flatMap((r) => r.interChunkAdded);
      const title = pattern === 'burst' ? `${CONVERSATIONS} concurrent conversations, burst (all sent at once)` : `${CONVERSATIONS} concurrent conversations, staggered (one every ${fmt(spacing, 0)} ms)`;
      rows.push(
        [title, ''],
        ['  errors', `${errors.length}${errors.length ? ` (${errors[0].error ?? `${errors[0].tokens} tokens`})` : ''}`],
        ['  conversations streaming at the same time (peak)', `${peakOverlap(load.map((r) => [r.started + r.phases[2], r.started + r.phases[3]]))} of ${CONVERSATIONS}`],
        ['  added time to first chunk (p50 / p95 / p99)', `${fmt(median(firstAdded), 2)} / ${fmt(percentile(firstAdded, 95), 2)} / ${fmt(percentile(firstAdded, 99), 2)} ms`],
        ['  added latency per chunk (p50 / p95 / p99)', `${fmt(median(perChunk), 2)} / ${fmt(percentile(perChunk, 95), 2)} / ${fmt(percentile(perChunk, 99), 2)} ms`],
        ['  added inter-chunk delay (p50 / p95 / p99)', `${fmt(median(inter), 2)} / ${fmt(percentile(inter, 95), 2)} / ${fmt(percentile(inter, 99), 2)} ms`],
        ['  median time to tool_call / tool_result / first chunk / end', [0, 1, 2, 3].map((i) => fmt(median(load.map((r) => r.phases[i])), 0)).join(' / ') + ' ms'],
        ['  chunks relayed / wall time', `${perChunk.length} / ${fmt(wallMs / 1000, 2)} s`],
        ['  server CPU during the run', `${fmt(after.cpuMs - before.cpuMs, 0)} ms (${fmt(((after.cpuMs - before.cpuMs) / wallMs) * 100, 0)}% of one core)`],
        ['  CPU of the fake upstream / of the clients', `${fmt(upstreamCpu, 0)} ms / ${fmt((clientsCpu.user + clientsCpu.system) / 1000, 0)} ms (separate processes)`],
        ['  server memory: RSS before → after, peak', `${fmt(before.rssMb, 0)} → ${fmt(after.rssMb, 0)} MB, peak ${fmt(after.peakRssMb, 0)} MB`],
      );
      const pass = errors.length === 0 && median(firstAdded) < 20 && percentile(inter, 99) < 10;
      verdicts.push(`targets, ${pattern} (0 errors, added TTFC median < 20 ms, added p99 inter-chunk < 10 ms): ${pass ? 'met' : 'NOT met'}`);
    }
    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [key, value] of rows) console.log(`${key.padEnd(width)}  ${value}`);
    for (const verdict of verdicts) console.log(verdict);
  } finally {
    await server?.stop();
    await fake.close();
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
