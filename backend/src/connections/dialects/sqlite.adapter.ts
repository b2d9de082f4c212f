import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { QueryEstimate, SchemaTable } from '@aigis/contracts';
import { AppError, isAppError } from '../../common/app-error.js';
import { assembleTables, type CatalogColumn, type CatalogForeignKey, type CatalogTable } from '../introspection/catalog.js';
import { collectSamples, summarizeSampleRow } from '../introspection/samples.js';
import { queryFailed } from './db-error.js';
import type {
  AdapterSettings,
  ConnectionTarget,
  DialectAdapter,
  ExecuteOptions,
  ExecuteResult,
  ExplainOptions,
  IntrospectionResult,
  IntrospectOptions,
  ServerProbe,
} from './dialect-adapter.js';
import { delay, supervise, waitFor } from './execution-control.js';
import { rowsToObjects, toJsonSafe, uniqueColumnNames } from './json-safe.js';
import { DEFAULT_BUDGETS, RowCollector, type TruncatedReason } from './result-budget.js';
import { SQLITE_CHILD_SOURCE } from './sqlite-child-source.js';
import { scanCandidates, scannedNames, type SqlitePlanRow, sqliteEstimate } from './sqlite-explain.js';

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');
/** SQLite keeps no row statistics, so introspection counts, up to this many rows per table. */
export const SQLITE_COUNT_CAP = 1_000_000;

interface ChildReply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: { message: string; code?: string };
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
 * One SQLite file, served by a child process (see sqlite-child-source.ts for why a process). Requests go one at a
 * time; a request that runs too long or is aborted kills the process, and the next request starts a fresh one.
 */
export class SqliteAdapter implements DialectAdapter {
  readonly dialect = 'sqlite' as const;
  private child: ChildProcess | null = null;
  private starting: Promise<ChildProcess> | null = null;
  private version = '';
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly target: ConnectionTarget,
    private readonly settings: AdapterSettings,
  ) {
    if (!target.filePath) throw new AppError('CONNECTION_FAILED', 'this SQLite connection has no file');
  }

  /** The pid of the SQLite process while one runs (diagnostics and tests: a stopped query must leave no process). */
  get processId(): number | null {
    return this.child?.pid ?? null;
  }

  async executeReadOnly(sql: string, options: ExecuteOptions): Promise<ExecuteResult> {
    const { maxRows, timeoutMs, signal } = options;
    const budgets = options.budgets ?? DEFAULT_BUDGETS;
    // The child cuts every value and stops at the budget before anything crosses the process boundary.
    const result = (await this.request(
      { op: 'exec', sql, maxRows: Math.max(0, maxRows), cellMaxBytes: budgets.cellMaxBytes, resultMaxBytes: budgets.resultMaxBytes },
      timeoutMs,
      signal,
    )) as { columns: string[]; rows: unknown[][]; truncated: boolean; reason: TruncatedReason | null };
    const columns = uniqueColumnNames(result.columns);
    const collector = new RowCollector(Math.max(0, maxRows), budgets);
    collector.setColumns(columns);
    for (const row of result.rows) if (!collector.push(row.map(toJsonSafe))) break;
    const truncated = result.truncated || collector.truncated;
    return {
      columns,
      rows: rowsToObjects(columns, collector.rows),
      truncated,
      truncatedReason: truncated ? (collector.reason ?? result.reason ?? 'row_limit') : null,
      sqlExecuted: sql,
    };
  }

  /** EXPLAIN QUERY PLAN, then the row counts of the scanned tables, in the read-only process under the timeout. */
  async explain(sql: string, options: ExplainOptions): Promise<QueryEstimate> {
    const { timeoutMs, signal } = options;
    const started = performance.now();
    const { plan, tables } = (await this.request({ op: 'plan', sql }, timeoutMs, signal)) as { plan: SqlitePlanRow[]; tables: string[] };
    const candidates = new Map(scannedNames(plan).map((name) => [name, scanCandidates(sql, name, tables)]));
    const wanted = [...new Set([...candidates.values()].flat())];
    const remaining = Math.max(1, timeoutMs - (performance.now() - started));
    const { counts } = wanted.length
      ? ((await this.request({ op: 'tableRows', tables: wanted, countCap: SQLITE_COUNT_CAP }, remaining, signal)) as { counts: Record<string, number> })
      : { counts: {} as Record<string, number> };
    const resolved: Record<string, string> = {};
    for (const [name, options] of candidates) {
      const largest = options.reduce<string | undefined>((best, t) => (best === undefined || (counts[t] ?? 0) > (counts[best] ?? 0) ? t : best), undefined);
      if (largest !== undefined) resolved[name] = largest;
    }
    return sqliteEstimate({ plan, tableRows: counts, resolved });
  }

  async probe(): Promise<ServerProbe> {
    await this.request({ op: 'exec', sql: 'SELECT 1', maxRows: 1, ...DEFAULT_BUDGETS }, this.settings.connectTimeoutMs * 2);
    // Opened with readonly + query_only: this connection cannot write whatever the file's permissions are.
    return { serverVersion: `SQLite ${this.version}`, readOnlyRole: true, elevatedPrivileges: [], warnings: [] };
  }

  async introspect(options: IntrospectOptions): Promise<IntrospectionResult> {
    const catalog = (await this.request({ op: 'catalog' }, 60_000, options.signal)) as {
      tables: [string, string][];
      columns: [string, string, string, number, string | null, number, number][];
      foreignKeys: [string, number, number, string, string, string | null][];
      statements: number;
    };
    const tables = buildSqliteTables(catalog);
    await collectSamples(tables, { concurrency: 1, signal: options.signal }, async (table) => {
      const isTable = table.kind === 'table';
      if (options.sampleRows <= 0 && !isTable) return [];
      const sample = (await this.request(
        { op: 'sample', table: table.name, limit: Math.max(0, options.sampleRows), countCap: isTable ? SQLITE_COUNT_CAP : 0 },
        options.sampleTimeoutMs,
        options.signal,
      )) as { columns: string[]; rows: unknown[][]; count: number | null };
      table.row_estimate = sample.count;
      const columns = uniqueColumnNames(sample.columns);
      return sample.rows.map((row) => summarizeSampleRow(columns, row));
    });
    return { tables, catalogQueries: catalog.statements };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.killChild();
  }

  /** Queues one request; runs it with the timer and abort signal; kills the child when either fires. */
  private async request(message: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
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
      const id = this.nextId++;
      const reply = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
      child.send({ ...message, id });
      return await supervise(reply, {
        signal,
        timeoutMs,
        // No server-side timeout exists here: the client timer is the timeout.
        timerMs: timeoutMs,
        stop: () => this.killChild(),
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

  private ensureChild(): Promise<ChildProcess> {
    if (this.child) return Promise.resolve(this.child);
    if (!this.starting) {
      this.starting = this.startChild().finally(() => (this.starting = null));
    }
    return this.starting;
  }

  private async startChild(): Promise<ChildProcess> {
    // An empty environment: the child needs nothing from ours (which holds the server's secrets).
    const child = spawn(process.execPath, ['-e', SQLITE_CHILD_SOURCE], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: {},
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on('message', (reply: ChildReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(new ChildFailed(reply.error?.message ?? 'SQLite failed', reply.error?.code));
    });
    child.on('exit', () => {
      if (this.child === child) this.child = null;
      const error = new ChildFailed(`the SQLite process ended unexpectedly${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`);
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    });
    child.on('error', noop);
    const id = this.nextId++;
    const opened = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    child.send({ id, op: 'open', driver: BETTER_SQLITE3, file: this.target.filePath });
    try {
      const { version } = (await Promise.race([
        opened,
        delay(Math.max(this.settings.connectTimeoutMs, 5000)).then(() => {
          throw new ChildFailed('the SQLite process did not start in time');
        }),
      ])) as { version: string };
      this.version = version;
    } catch (err) {
      child.kill('SIGKILL');
      const reason = err instanceof Error ? err.message : String(err);
      throw new AppError('CONNECTION_FAILED', `cannot open the SQLite file ${this.target.filePath}: ${reason}`);
    }
    this.child = child;
    return child;
  }

  private async killChild(): Promise<void> {
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

type SqliteCatalog = {
  tables: [string, string][];
  columns: [string, string, string, number, string | null, number, number][];
  foreignKeys: [string, number, number, string, string, string | null][];
};

/** Rows of sqlite_master / pragma_table_xinfo / pragma_foreign_key_list → SchemaTables (schema "main"). */
export function buildSqliteTables(catalog: SqliteCatalog): SchemaTable[] {
  const tables: CatalogTable[] = catalog.tables.map(([name, type]) => ({
    schema: 'main',
    name,
    kind: type === 'view' ? 'view' : 'table',
    comment: null,
    rowEstimate: null,
  }));
  const columns: CatalogColumn[] = catalog.columns.map(([table, name, type, notnull, dflt, pk]) => ({
    schema: 'main',
    table,
    name,
    type: type || '',
    nullable: Number(notnull) === 0 && Number(pk) === 0,
    default: dflt,
    primary_key: Number(pk) > 0,
    comment: null,
  }));
  // A key written as REFERENCES t (no column list) points at t's primary key.
  const primaryKeys = new Map<string, string[]>();
  for (const c of columns) if (c.primary_key) primaryKeys.set(c.table, [...(primaryKeys.get(c.table) ?? []), c.name]);
  const foreignKeys: (CatalogForeignKey & { id: number })[] = [];
  let current: (CatalogForeignKey & { id: number }) | null = null;
  for (const [table, id, , refTable, from, to] of catalog.foreignKeys) {
    if (!current || current.table !== table || current.id !== Number(id)) {
      current = { schema: 'main', table, id: Number(id), name: null, columns: [], referenced_schema: 'main', referenced_table: refTable, referenced_columns: [] };
      foreignKeys.push(current);
    }
    current.columns.push(from);
    current.referenced_columns.push(to ?? primaryKeys.get(refTable)?.[current.columns.length - 1] ?? '');
  }
  return assembleTables(
    tables,
    columns,
    foreignKeys.map(({ id: _id, ...fk }) => fk),
  );
}
