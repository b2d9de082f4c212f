/**
 * Where a process's CPU went, from a V8 `.cpuprofile` (`node --cpu-prof`): self time grouped by owner
 * (our folders under backend/dist/src, each npm package, Node's internals, GC, native), restricted to a
 * window of the monotonic clock so that start-up and warm-up are left out.
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The monotonic clock in µs, the clock V8 stamps its profiles with (CLOCK_MONOTONIC on Linux). */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** Who owns a frame: `ours:<folder>`, `pkg:<name>`, `node:<module>`, or a V8 pseudo-frame. */
export function ownerOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return functionName === '(garbage collector)' || functionName === '(idle)' || functionName === '(program)' ? functionName : 'native (V8 builtins, I/O)';
  if (url.startsWith('wasm://')) return 'wasm';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg:${pkg[1]}`;
  const ours = /\/(?:backend\/dist\/src|contracts\/dist)\/([^/]+)/.exec(url);
  if (ours) return url.includes('/contracts/') ? 'ours:contracts' : `ours:${ours[1].replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  return 'other';
}

export interface ProfileSummary {
  /** Sampled time in the window that was not idle, ms. */
  busyMs: number;
  byOwner: [string, number][];
  byFunction: [string, number][];
}

/** Self time per owner and per function inside [fromUs, toUs] (monotonic µs); idle time left out. */
export function summarize(profile: Profile, fromUs = -Infinity, toUs = Infinity): ProfileSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let t = profile.startTime;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (t < fromUs || t > toUs) return;
    const frame = nodes.get(id)!.callFrame;
    const owner = ownerOf(frame);
    if (owner === '(idle)') return;
    busy += delta;
    owners.set(owner, (owners.get(owner) ?? 0) + delta);
    const name = `${frame.functionName || '(anonymous)'} [${owner}${frame.url ? `:${frame.lineNumber + 1}` : ''}]`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
  });
  const sorted = (m: Map<string, number>) => [...m].map(([k, v]): [string, number] => [k, v / 1000]).sort((a, b) => b[1] - a[1]);
  return { busyMs: busy / 1000, byOwner: sorted(owners), byFunction: sorted(functions) };
}

export function readProfile(file: string): Profile {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
}

/** Owners summed into the few groups the README reports. */
export function grouped(byOwner: [string, number][]): [string, number][] {
  const group = (owner: string) => {
    if (owner.startsWith('ours:')) return 'our code (backend/src, contracts)';
    if (/^pkg:@langchain\/langgraph/.test(owner) || owner === 'pkg:@langchain/langgraph-checkpoint') return 'LangGraph (graph + checkpoint serialisation)';
    if (/^pkg:(@langchain\/|langsmith|openai|js-tiktoken)/.test(owner)) return 'LangChain model clients (@langchain/core, openai SDK)';
    if (/^pkg:(better-sqlite3|kysely|pg|pg-protocol|pg-pool|mysql2)$/.test(owner)) return 'database drivers and Kysely (storage, checkpoints, queries)';
    if (/^pkg:(libpg-query|node-sql-parser)$/.test(owner) || owner.startsWith('wasm')) return 'SQL parsers (guard)';
    if (/^pkg:(@nestjs\/|express|router|body-parser|reflect-metadata|rxjs|path-to-regexp|iterare|helmet|zod)/.test(owner)) return 'NestJS, Express, zod (HTTP and validation)';
    if (owner === '(garbage collector)') return 'garbage collection';
    if (owner.startsWith('node:') || owner === 'native (V8 builtins, I/O)' || owner === '(program)') return 'Node.js runtime (I/O, streams, timers, V8 builtins)';
    return 'other packages';
  };
  const sums = new Map<string, number>();
  for (const [owner, ms] of byOwner) sums.set(group(owner), (sums.get(group(owner)) ?? 0) + ms);
  return [...sums].sort((a, b) => b[1] - a[1]);
}
