/**
 * Source of the process that runs SQLite for one connection (CommonJS, started with `node -e`). Kept as a string so
 * it runs the same under vitest (where our sources are .ts) and from the compiled dist.
 *
 * Why a process and not a worker thread: better-sqlite3 is synchronous and has no interrupt, and Worker.terminate()
 * cannot stop a thread that is inside sqlite3_step (a runaway `count(*)` keeps burning a core forever). Killing a
 * process always works.
 *
 * Messages (advanced serialization, so BigInt and bytes travel as they are):
 *   → { id, op: 'open', driver, file }            ← { version }
 *   → { id, op: 'exec', sql, maxRows, cellMaxBytes, resultMaxBytes }
 *                                                 ← { columns, rows (arrays, values cut), truncated, reason }
 *   → { id, op: 'catalog' }                       ← { tables, columns, foreignKeys, statements }
 *   → { id, op: 'sample', table, limit, countCap } ← { columns, rows, count }
 *   → { id, op: 'plan', sql }                     ← { plan: [{ id, parent, detail }], tables }
 *   → { id, op: 'tableRows', tables, countCap }    ← { counts: { table: rows } }
 *   errors ← { id, ok: false, error: { message, code } }
 */
export const SQLITE_CHILD_SOURCE = String.raw`
'use strict';
let db = null;

function quote(name) { return '"' + String(name).replace(/"/g, '""') + '"'; }

// The same cut as cutText in result-budget.ts (this file cannot import it): prefix + "…[cut: N bytes]".
function cutValue(value, maxBytes) {
  if (typeof value === 'string') {
    if (value.length * 3 <= maxBytes) return value;
    const total = Buffer.byteLength(value);
    if (total <= maxBytes) return value;
    const marker = '…[cut: ' + total.toLocaleString('en-US') + ' bytes]';
    const room = Math.max(0, maxBytes - Buffer.byteLength(marker));
    let prefix = value.slice(0, room);
    if (/[\uD800-\uDBFF]$/.test(prefix)) prefix = prefix.slice(0, -1);
    const bytes = Buffer.from(prefix);
    if (bytes.length > room) {
      let end = room;
      while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
      prefix = bytes.subarray(0, end).toString();
    }
    return prefix + marker;
  }
  // Large byte values travel as their length only (json-safe.ts BYTES_INLINE_MAX).
  if (value instanceof Uint8Array && value.length > 256) return { $bytes: value.length };
  return value;
}

function cellBytes(value) {
  if (value === null || value === undefined) return 5;
  if (typeof value === 'string') return Buffer.byteLength(JSON.stringify(value)) + 1;
  if (value instanceof Uint8Array) return Math.ceil(value.length / 3) * 4 + 32;
  if (typeof value === 'object') return 32;
  return String(value).length + 1;
}

const handlers = {
  open(msg) {
    const Database = require(msg.driver);
    db = new Database(msg.file, { readonly: true, fileMustExist: true });
    db.pragma('query_only = ON');
    return { version: db.prepare('SELECT sqlite_version()').pluck().get() };
  },
  exec(msg) {
    const stmt = db.prepare(msg.sql);
    if (!stmt.reader) {
      const err = new Error('this statement does not return rows; the connection is read-only and runs queries only');
      err.code = 'SQLITE_READONLY';
      throw err;
    }
    stmt.raw(true);
    stmt.safeIntegers(true);
    const columns = stmt.columns().map((c) => c.name);
    const rows = [];
    let truncated = false;
    let reason = null;
    let bytes = 2;
    const overhead = columns.reduce((sum, c) => sum + Buffer.byteLength(JSON.stringify(c)) + 3, 2);
    // Each row is cut as soon as better-sqlite3 hands it over, so no whole large value is ever sent to the API.
    for (const row of stmt.iterate()) {
      if (rows.length >= msg.maxRows) { truncated = true; reason = 'row_limit'; break; }
      const cells = row.map((v) => cutValue(v, msg.cellMaxBytes));
      const size = cells.reduce((sum, v) => sum + cellBytes(v), overhead);
      if (rows.length > 0 && bytes + size > msg.resultMaxBytes) { truncated = true; reason = 'result_bytes'; break; }
      rows.push(cells);
      bytes += size;
      if (bytes > msg.resultMaxBytes) { truncated = true; reason = 'result_bytes'; break; }
    }
    return { columns, rows, truncated, reason };
  },
  catalog() {
    const user = "m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";
    let statements = 1;
    const tables = db.prepare('SELECT m.name, m.type FROM sqlite_master m WHERE ' + user + ' ORDER BY m.name').raw(true).all();
    // One statement for all relations; if one of them is broken (a view over a dropped table), SQLite fails the
    // whole join, so then each relation is read on its own and the broken ones are skipped.
    const perRelation = (pragma, columns, order) => {
      try {
        statements++;
        return db.prepare('SELECT m.name, ' + columns + ' FROM sqlite_master m JOIN ' + pragma + '(m.name) p WHERE ' + user +
          ' ORDER BY m.name, ' + order).raw(true).all();
      } catch (err) {
        const rows = [];
        for (const [name] of tables) {
          statements++;
          try {
            rows.push(...db.prepare('SELECT ?, ' + columns + ' FROM ' + pragma + '(?) p ORDER BY ' + order).raw(true).all(name, name));
          } catch (ignored) { /* a broken view: listed without columns; sampling reports its error */ }
        }
        return rows;
      }
    };
    const columns = perRelation('pragma_table_xinfo', 'p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden', 'p.cid');
    const foreignKeys = perRelation('pragma_foreign_key_list', 'p.id, p.seq, p."table", p."from", p."to"', 'p.id, p.seq');
    return { tables, columns, foreignKeys, statements };
  },
  sample(msg) {
    const stmt = db.prepare('SELECT * FROM ' + quote(msg.table) + ' LIMIT ' + Number(msg.limit)).raw(true).safeIntegers(true);
    const columns = stmt.columns().map((c) => c.name);
    const rows = msg.limit > 0 ? stmt.all().map((row) => row.map((v) => cutValue(v, 4096))) : [];
    const count = msg.countCap > 0
      ? Number(db.prepare('SELECT count(*) FROM (SELECT 1 FROM ' + quote(msg.table) + ' LIMIT ' + Number(msg.countCap) + ')').pluck().get())
      : null;
    return { columns, rows, count };
  },
  // EXPLAIN QUERY PLAN of a statement the guard accepted (the prefix is ours), and the file's tables.
  plan(msg) {
    const plan = db.prepare('EXPLAIN QUERY PLAN ' + msg.sql).all().map((r) => ({ id: r.id, parent: r.parent, detail: String(r.detail) }));
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    return { plan, tables };
  },
  // Row counts for the estimate: sqlite_stat1 when ANALYZE has run, else counted up to countCap.
  tableRows(msg) {
    const counts = {};
    let stat = new Map();
    try {
      stat = new Map(db.prepare('SELECT tbl, stat FROM sqlite_stat1').raw(true).all().map(([t, s]) => [t, Number(String(s).split(' ')[0])]));
    } catch (absent) { /* no ANALYZE yet */ }
    for (const table of msg.tables) {
      counts[table] = Number.isFinite(stat.get(table))
        ? stat.get(table)
        : Number(db.prepare('SELECT count(*) FROM (SELECT 1 FROM ' + quote(table) + ' LIMIT ' + Number(msg.countCap) + ')').pluck().get());
    }
    return { counts };
  },
};

process.on('message', (msg) => {
  let reply;
  try {
    reply = { id: msg.id, ok: true, result: handlers[msg.op](msg) };
  } catch (err) {
    reply = { id: msg.id, ok: false, error: { message: String((err && err.message) || err), code: err && err.code } };
  }
  process.send(reply);
});
// The parent went away: nothing left to serve.
process.on('disconnect', () => process.exit(0));
`;
