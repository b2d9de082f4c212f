/**
 * The process that runs SQLite for one connection, started by SqliteProcess with `child_process.fork`: from the
 * compiled dist, or as this TypeScript source (Node strips the types) under the tests. Its runtime imports are
 * written with `.ts` so both resolve (tsc rewrites them to `.js`); they must stay free of imports of their own.
 *
 * Why a process and not a worker thread: better-sqlite3 is synchronous and has no interrupt, and Worker.terminate()
 * cannot stop a thread that is inside sqlite3_step (a runaway `count(*)` keeps burning a core forever). Killing a
 * process always works. Messages: sqlite-protocol.ts.
 */
import Database from 'better-sqlite3';
import { BYTES_INLINE_MAX } from '../json-safe.ts';
import { cutText } from '../cut-text.ts';
import { SQLITE_EXPLAIN_PREFIX } from './sqlite-explain.ts';
import type { SqliteOp, SqliteOps, SqliteReply, SqliteRequest } from './sqlite-protocol.js';

/** Sample values are shown cut to a few hundred characters; this bounds what crosses the process boundary. */
const SAMPLE_CELL_MAX_BYTES = 4096;

let db: Database.Database | null = null;

function open(): Database.Database {
  if (!db) throw new Error('the SQLite file is not open');
  return db;
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Text cut like every other dialect's (result-budget.ts); large byte values travel as their length only. */
function cutValue(value: unknown, maxBytes: number): unknown {
  if (typeof value === 'string') return cutText(value, maxBytes);
  if (value instanceof Uint8Array && value.length > BYTES_INLINE_MAX) return { $bytes: value.length };
  return value;
}

/** A cheap upper bound of a raw value's size in the JSON answer (bigints and bytes not yet converted). */
function cellBytes(value: unknown): number {
  if (value === null || value === undefined) return 5;
  if (typeof value === 'string') return Buffer.byteLength(JSON.stringify(value)) + 1;
  if (value instanceof Uint8Array) return Math.ceil(value.length / 3) * 4 + 32;
  if (typeof value === 'object') return 32;
  return String(value).length + 1;
}

function countRows(table: string, cap: number): number {
  return Number(open().prepare(`SELECT count(*) FROM (SELECT 1 FROM ${quote(table)} LIMIT ${Number(cap)})`).pluck().get());
}

type Handlers = { [K in SqliteOp]: (request: SqliteOps[K]['request']) => SqliteOps[K]['reply'] };

const handlers: Handlers = {
  open({ file }) {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('query_only = ON');
    return { version: String(db.prepare('SELECT sqlite_version()').pluck().get()) };
  },

  exec({ sql, maxRows, cellMaxBytes, resultMaxBytes }) {
    const stmt = open().prepare(sql);
    if (!stmt.reader) {
      throw Object.assign(new Error('this statement does not return rows; the connection is read-only and runs queries only'), { code: 'SQLITE_READONLY' });
    }
    stmt.raw(true);
    stmt.safeIntegers(true);
    const columns = stmt.columns().map((c) => c.name);
    const rows: unknown[][] = [];
    let truncated = false;
    let reason: 'row_limit' | 'result_bytes' | null = null;
    let bytes = 2;
    const overhead = columns.reduce((sum, c) => sum + Buffer.byteLength(JSON.stringify(c)) + 3, 2);
    // Each row is cut as soon as better-sqlite3 hands it over, so no whole large value is ever sent to the API.
    for (const row of stmt.iterate() as Iterable<unknown[]>) {
      if (rows.length >= maxRows) {
        truncated = true;
        reason = 'row_limit';
        break;
      }
      const cells = row.map((v) => cutValue(v, cellMaxBytes));
      const size = cells.reduce<number>((sum, v) => sum + cellBytes(v), overhead);
      if (rows.length > 0 && bytes + size > resultMaxBytes) {
        truncated = true;
        reason = 'result_bytes';
        break;
      }
      rows.push(cells);
      bytes += size;
      if (bytes > resultMaxBytes) {
        truncated = true;
        reason = 'result_bytes';
        break;
      }
    }
    return { columns, rows, truncated, reason };
  },

  catalog() {
    const db = open();
    const user = "m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";
    let statements = 1;
    const tables = db.prepare(`SELECT m.name, m.type FROM sqlite_master m WHERE ${user} ORDER BY m.name`).raw(true).all() as [string, string][];
    // One statement for all relations; if one of them is broken (a view over a dropped table), SQLite fails the
    // whole join, so then each relation is read on its own and the broken ones are skipped.
    const perRelation = <T>(pragma: string, columns: string, order: string): T[] => {
      try {
        statements++;
        return db.prepare(`SELECT m.name, ${columns} FROM sqlite_master m JOIN ${pragma}(m.name) p WHERE ${user} ORDER BY m.name, ${order}`).raw(true).all() as T[];
      } catch {
        const rows: T[] = [];
        for (const [name] of tables) {
          statements++;
          try {
            rows.push(...(db.prepare(`SELECT ?, ${columns} FROM ${pragma}(?) p ORDER BY ${order}`).raw(true).all(name, name) as T[]));
          } catch {
            // A broken view: listed without columns; sampling reports its error.
          }
        }
        return rows;
      }
    };
    const columns = perRelation<SqliteOps['catalog']['reply']['columns'][number]>('pragma_table_xinfo', 'p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden', 'p.cid');
    const foreignKeys = perRelation<SqliteOps['catalog']['reply']['foreignKeys'][number]>('pragma_foreign_key_list', 'p.id, p.seq, p."table", p."from", p."to"', 'p.id, p.seq');
    return { tables, columns, foreignKeys, statements };
  },

  sample({ table, limit, countCap }) {
    const stmt = open().prepare(`SELECT * FROM ${quote(table)} LIMIT ${Number(limit)}`).raw(true).safeIntegers(true);
    const columns = stmt.columns().map((c) => c.name);
    const rows = limit > 0 ? (stmt.all() as unknown[][]).map((row) => row.map((v) => cutValue(v, SAMPLE_CELL_MAX_BYTES))) : [];
    return { columns, rows, count: countCap > 0 ? countRows(table, countCap) : null };
  },

  plan({ sql }) {
    const db = open();
    const plan = (db.prepare(SQLITE_EXPLAIN_PREFIX + sql).all() as { id: number; parent: number; detail: unknown }[]).map((r) => ({
      id: r.id,
      parent: r.parent,
      detail: String(r.detail),
    }));
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    return { plan, tables };
  },

  tableRows({ tables, countCap }) {
    const counts: Record<string, number> = {};
    let stat = new Map<string, number>();
    try {
      const rows = open().prepare('SELECT tbl, stat FROM sqlite_stat1').raw(true).all() as [string, unknown][];
      stat = new Map(rows.map(([t, s]) => [t, Number(String(s).split(' ')[0])]));
    } catch {
      // No ANALYZE yet.
    }
    for (const table of tables) {
      const known = stat.get(table);
      counts[table] = known !== undefined && Number.isFinite(known) ? known : countRows(table, countCap);
    }
    return { counts };
  },
};

function answer(request: SqliteRequest): SqliteReply {
  try {
    const handler = handlers[request.op] as (r: SqliteRequest) => SqliteOps[SqliteOp]['reply'];
    return { id: request.id, ok: true, result: handler(request) };
  } catch (err) {
    const error = err as { message?: unknown; code?: unknown } | null;
    return {
      id: request.id,
      ok: false,
      error: { message: String(error?.message ?? err), code: typeof error?.code === 'string' ? error.code : undefined },
    };
  }
}

process.on('message', (request: SqliteRequest) => process.send?.(answer(request)));
// The parent went away: nothing left to serve.
process.on('disconnect', () => process.exit(0));
