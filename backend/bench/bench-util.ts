import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const median = (values: number[]) => percentile(values, 50);
export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function statFields(pid: number): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The process and its children (cluster workers). */
function familyOf(pid: number): number[] {
  const children = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((child) => {
      try {
        return Number(statFields(child)[1]) === pid;
      } catch {
        return false;
      }
    });
  return [pid, ...children];
}

/**
 * CPU time (user + system, ms) and memory of another process and its children (cluster workers),
 * from /proc. Peak RSS is the largest single process's; RSS is the sum.
 */
export function processStats(pid: number): { cpuMs: number; rssMb: number; peakRssMb: number } {
  let ticks = 0;
  let rss = 0;
  let peak = 0;
  for (const member of familyOf(pid)) {
    try {
      const fields = statFields(member);
      ticks += Number(fields[11]) + Number(fields[12]);
      const status = fs.readFileSync(`/proc/${member}/status`, 'utf8');
      const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
      rss += kb('VmRSS') / 1024;
      peak = Math.max(peak, kb('VmHWM') / 1024);
    } catch {
      /* exited meanwhile */
    }
  }
  return { cpuMs: (ticks * 1000) / 100, rssMb: rss, peakRssMb: peak };
}

/** Starts the built API (dist/src/main.js) as its own process, so its CPU and memory are its own. */
export async function startServer(env: Record<string, string>, node = process.execPath, extraNodeArgs: string[] = []): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const main = path.resolve(here, '../src/main.js');
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server during a run.
  const nodeArgs = [...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), ...extraNodeArgs];
  const child = spawn(node, [...nodeArgs, main], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000; // generous: a loaded machine starts slowly
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before it answered /api/health`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer ${url}/api/health within 300 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
