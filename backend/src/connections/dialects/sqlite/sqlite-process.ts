import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { AppError, isAppError } from '../../../common/app-error.js';
import { queryFailed } from '../db-error.js';
import { delay, supervise, waitFor } from '../execution-control.js';
import type { SqliteOp, SqliteOps, SqliteReply, SqliteRequest } from './sqlite-protocol.js';

/** The files sqlite-child.ts loads at run time (its header says why they must stay free of imports). */
const CHILD_SOURCES = ['./sqlite-child.ts', './sqlite-explain.ts', '../cut-text.ts', '../json-safe.ts'];
/** Where `npm run build` puts the compiled child, seen from this source file (backend/src/… → backend/dist/src/…). */
const BUILT_CHILD = '../../../../dist/src/connections/dialects/sqlite/sqlite-child.js';

/**
 * The module the SQLite process runs. From dist: the compiled sqlite-child.js beside this file. Under the tests
 * (TypeScript sources): the build's compiled copy while it is newer than every source it came from, else the .ts
 * source itself (Node strips the types, but starts about twice as slowly, which a loaded machine feels).
 */
export function sqliteChildModule(from: string = import.meta.url): URL {
  if (!from.endsWith('.ts')) return new URL('./sqlite-child.js', from);
  const built = new URL(BUILT_CHILD, from);
  const builtAt = fs.statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const fresh = CHILD_SOURCES.every((source) => (fs.statSync(new URL(source, from), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) <= builtAt);
  return fresh ? built : new URL('./sqlite-child.ts', from);
}

class ChildFailed extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * One SQLite file, served by a child process (see sqlite-child.ts for why a process). Requests go one at a time; a
 * request that runs too long or is aborted kills the process, and the next request starts a fresh one.
 */
export class SqliteProcess {
  private child: ChildProcess | null = null;
  private starting: Promise<ChildProcess> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** SQLite's version, known once a process has opened the file. */
  version = '';

  constructor(
    private readonly filePath: string,
    private readonly startTimeoutMs: number,
    private readonly childModule: URL = sqliteChildModule(),
  ) {}

  /** The pid of the SQLite process while one runs (diagnostics and tests: a stopped query must leave no process). */
  get processId(): number | null {
    return this.child?.pid ?? null;
  }

  /** Queues one request; runs it with the timer and abort signal; kills the child when either fires. */
  async request<K extends SqliteOp>(op: K, fields: SqliteOps[K]['request'], timeoutMs: number, signal?: AbortSignal): Promise<SqliteOps[K]['reply']> {
    if (this.closed) throw new AppError('CONNECTION_FAILED', 'this connection was closed; try again');
    const previous = this.queue;
    let done!: () => void;
    this.queue = new Promise<void>((resolve) => (done = resolve));
    try {
      await waitFor(previous, {
        signal,
        waitMs: timeoutMs,
        onTimeout: () => new AppError('QUERY_TIMEOUT', 'the SQLite file stayed busy with another query; try again'),
        discard: () => undefined,
      });
      const child = await this.ensureChild();
      return await supervise(this.send(child, op, fields), {
        signal,
        timeoutMs,
        // No server-side timeout exists here: the client timer is the timeout.
        timerMs: timeoutMs,
        stop: () => this.kill(),
      });
    } catch (err) {
      if (isAppError(err)) throw err;
      if (err instanceof ChildFailed) throw queryFailed('sqlite', err);
      throw err;
    } finally {
      // A request that gave up while queued must still wait for its turn before letting the next one through.
      void previous.then(done, done);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.kill();
  }

  private send<K extends SqliteOp>(child: ChildProcess, op: K, fields: SqliteOps[K]['request']): Promise<SqliteOps[K]['reply']> {
    const id = this.nextId++;
    const reply = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    child.send({ ...fields, op, id } as SqliteRequest);
    return reply as Promise<SqliteOps[K]['reply']>;
  }

  private ensureChild(): Promise<ChildProcess> {
    if (this.child) return Promise.resolve(this.child);
    this.starting ??= this.start().finally(() => (this.starting = null));
    return this.starting;
  }

  private async start(): Promise<ChildProcess> {
    // An empty environment (the child needs nothing from ours, which holds the server's secrets) and no flags of ours.
    const child = fork(this.childModule, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced', env: {}, execArgv: [] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on('message', (reply: SqliteReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(new ChildFailed(reply.error.message || 'SQLite failed', reply.error.code));
    });
    child.on('exit', () => {
      if (this.child === child) this.child = null;
      const error = new ChildFailed(`the SQLite process ended unexpectedly${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`);
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    });
    child.on('error', noop);
    try {
      const { version } = await Promise.race([
        this.send(child, 'open', { file: this.filePath }),
        delay(this.startTimeoutMs).then(() => {
          throw new ChildFailed('the SQLite process did not start in time');
        }),
      ]);
      this.version = version;
    } catch (err) {
      child.kill('SIGKILL');
      const reason = err instanceof Error ? err.message : String(err);
      throw new AppError('CONNECTION_FAILED', `cannot open the SQLite file ${this.filePath}: ${reason}`);
    }
    this.child = child;
    return child;
  }

  private async kill(): Promise<void> {
    const child = this.child ?? (this.starting ? await this.starting.catch(() => null) : null);
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await Promise.race([exited, delay(2000)]);
  }
}

function noop(): void {}
