import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, TEST_ALLOW_HOSTS } from './env.js';

/** The built API (`npm run build -w backend`); tests that need separate processes run it. */
export const BACKEND_MAIN = path.join(REPO_ROOT, 'backend/dist/src/main.js');

export interface AppProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  dataDir: string;
  pid: number;
  /** What the process printed (stdout and stderr), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The real built app (`node backend/dist/src/main.js`) as a child process on a free port, with a fresh
 * DATA_DIR unless one is given (removed on stop only when it was made here). Only what is passed in `env`
 * configures it: nothing leaks in from the developer's environment (an OPENAI_API_KEY there would change
 * which models exist).
 */
export async function startAppProcess(env: Record<string, string> = {}): Promise<AppProcess> {
  if (!fs.existsSync(BACKEND_MAIN)) throw new Error(`${BACKEND_MAIN} is missing: run \`npm run build\``);
  const port = await freePort();
  const ownDataDir = !env.DATA_DIR;
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-app-'));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BACKEND_MAIN], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Server mode refuses loopback targets unless allowed; the test databases live on this machine.
      ...(env.DATABASE_URL && env.CONNECTION_ALLOW_HOSTS === undefined ? { CONNECTION_ALLOW_HOSTS: TEST_ALLOW_HOSTS } : {}),
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // If the test worker dies first, do not leave a server behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, dataDir, pid: child.pid!, output: () => output, stop };
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The app exited (${child.exitCode ?? child.signalCode}) before it answered /api/health:\n${output()}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The app did not answer ${url}/api/health within ${timeoutMs} ms:\n${output()}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
