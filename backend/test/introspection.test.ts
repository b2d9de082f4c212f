import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Dialect, SchemaTable } from '@aigis/contracts';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectAdapter, IntrospectOptions } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import { quoteQualified } from '../src/connections/dialects/quote-ident.js';
import { findTable, renderSchemaMarkdown } from '../src/connections/introspection/schema-markdown.js';
import {
  createMysqlAccount,
  createMysqlDatabase,
  createPgDatabase,
  loadMusicBrainz,
  loadMysqlChinook,
  loadPgChinook,
  loadSpiderDeMysql,
  loadSpiderDePg,
  type MysqlAccount,
  type MysqlDatabase,
  mysqlAdminQuery,
  mysqlTarget,
  type PgDatabase,
  type SpiderDeMysql,
  sqliteChinookPath,
  sqliteTarget,
} from './support/fixtures.js';

const SETTINGS = { connectTimeoutMs: 5000, poolMax: 4 };
const SAMPLES: IntrospectOptions = { sampleRows: 3, sampleConcurrency: 8, sampleTimeoutMs: 5000 };

let tmpDir: string;
const adapters: DialectAdapter[] = [];
const cleanups: (() => Promise<void>)[] = [];

function open(target: Parameters<typeof createAdapter>[0]): DialectAdapter {
  const a = createAdapter(target, SETTINGS);
  adapters.push(a);
  return a;
}

beforeAll(() => {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-t-'));
});

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  for (const c of cleanups.reverse()) await c();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

function table(tables: SchemaTable[], name: string): SchemaTable {
  const found = findTable(tables, name);
  if (!found) throw new Error(`table ${name} not introspected`);
  return found;
}

const CHINOOK_TABLES: Record<Dialect, string[]> = {
  postgres: ['album', 'artist', 'customer', 'employee', 'genre', 'invoice', 'invoice_line', 'media_type', 'playlist', 'playlist_track', 'track'],
  mysql: ['Album', 'Artist', 'Customer', 'Employee', 'Genre', 'Invoice', 'InvoiceLine', 'MediaType', 'Playlist', 'PlaylistTrack', 'Track'],
  sqlite: ['Album', 'Artist', 'Customer', 'Employee', 'Genre', 'Invoice', 'InvoiceLine', 'MediaType', 'Playlist', 'PlaylistTrack', 'Track'],
};
const TRACK: Record<Dialect, { name: string; fk: { columns: string[]; table: string; referenced: string[] } }> = {
  postgres: { name: 'track', fk: { columns: ['album_id'], table: 'album', referenced: ['album_id'] } },
  mysql: { name: 'Track', fk: { columns: ['AlbumId'], table: 'Album', referenced: ['AlbumId'] } },
  sqlite: { name: 'Track', fk: { columns: ['AlbumId'], table: 'Album', referenced: ['AlbumId'] } },
};

describe('Chinook in every dialect', () => {
  const chinook = {} as Record<Dialect, DialectAdapter>;

  beforeAll(async () => {
    const [pgDb, myDb] = await Promise.all([createPgDatabase('intro'), createMysqlDatabase('intro')]);
    cleanups.push(pgDb.drop, myDb.drop);
    await Promise.all([loadPgChinook(pgDb), loadMysqlChinook(myDb)]);
    chinook.postgres = open(pgDb.target({ id: 'intro-pg' }));
    chinook.mysql = open(myDb.target({ id: 'intro-my' }));
    chinook.sqlite = open(sqliteTarget(sqliteChinookPath(), { id: 'intro-lite' }));
  });

  it.each(['postgres', 'mysql', 'sqlite'] as const)('%s: 11 tables, 11 foreign keys, keys, comments-free columns, up to 3 samples', async (dialect) => {
    const { tables, catalogQueries } = await chinook[dialect].introspect(SAMPLES);
    expect(tables.map((t) => t.name).sort()).toEqual(CHINOOK_TABLES[dialect]);
    expect(tables.every((t) => t.kind === 'table')).toBe(true);
    expect(tables.flatMap((t) => t.foreign_keys)).toHaveLength(11);
    expect(tables.every((t) => t.columns.some((c) => c.primary_key))).toBe(true);
    expect(catalogQueries).toBe(3);
    for (const t of tables) {
      expect(t.sample_rows.length, t.name).toBeGreaterThan(0);
      expect(t.sample_rows.length, t.name).toBeLessThanOrEqual(3);
      expect(t.sample_error).toBeUndefined();
      expect(Object.keys(t.sample_rows[0])).toEqual(t.columns.map((c) => c.name));
    }
    const track = table(tables, TRACK[dialect].name);
    expect(track.foreign_keys).toContainEqual(
      expect.objectContaining({ columns: TRACK[dialect].fk.columns, referenced_table: TRACK[dialect].fk.table, referenced_columns: TRACK[dialect].fk.referenced }),
    );
    const key = track.columns.find((c) => c.primary_key)!;
    expect(key.nullable).toBe(false);
    expect(key.type.toLowerCase()).toMatch(/int/);
    // PostgreSQL (after ANALYZE) and SQLite (counted) are exact; InnoDB's TABLE_ROWS is an estimate.
    if (dialect === 'mysql') expect(Math.abs((track.row_estimate ?? 0) - 3503)).toBeLessThan(800);
    else expect(track.row_estimate).toBe(3503);
  });

  it.each(['postgres', 'mysql', 'sqlite'] as const)('%s: metadata only when samples are off', async (dialect) => {
    const { tables } = await chinook[dialect].introspect({ ...SAMPLES, sampleRows: 0 });
    expect(tables).toHaveLength(11);
    expect(tables.every((t) => t.sample_rows.length === 0 && t.sample_error === undefined)).toBe(true);
  });

  it('the markdown for the prompt names the dialect and fits the full mode', async () => {
    const { tables } = await chinook.postgres.introspect(SAMPLES);
    const { markdown, markdown_mode } = renderSchemaMarkdown(tables, { dialect: 'postgres', budgetChars: 24_000 });
    expect(markdown_mode).toBe('full');
    expect(markdown).toMatch(/^# PostgreSQL database: 11 tables/);
    expect(markdown).toContain('## invoice_line (table, ~2240 rows)\n- invoice_line_id integer PK\n- invoice_id integer NOT NULL → invoice.invoice_id');
    expect(markdown).toContain('| 1 | For Those About To Rock We Salute You | 1 |');
  });
});

describe('PostgreSQL at scale and with unusual names', () => {
  let mb: DialectAdapter;
  let sde: DialectAdapter;
  let odd: PgDatabase;

  beforeAll(async () => {
    const [mbDb, sdeDb, oddDb] = await Promise.all([createPgDatabase('mb'), createPgDatabase('sde'), createPgDatabase('odd')]);
    cleanups.push(mbDb.drop, sdeDb.drop, oddDb.drop);
    await Promise.all([loadMusicBrainz(mbDb), loadSpiderDePg(sdeDb)]);
    odd = oddDb;
    mb = open(mbDb.target({ id: 'intro-mb' }));
    sde = open(sdeDb.target({ id: 'intro-sde' }));
  }, 180_000);

  it('MusicBrainz (9 schemas, 500+ tables) needs as many catalog queries as Chinook', async () => {
    const result = await mb.introspect(SAMPLES);
    expect(result.catalogQueries).toBe(3);
    const tables = result.tables.filter((t) => t.kind === 'table');
    expect(tables.length).toBeGreaterThanOrEqual(500);
    expect(result.tables.filter((t) => t.kind === 'view')).toHaveLength(12);
    expect(new Set(result.tables.map((t) => t.schema)).size).toBeGreaterThanOrEqual(9);
    expect(result.tables.flatMap((t) => t.foreign_keys).length).toBeGreaterThan(850);
    // Schema only: every table is empty; plain tables are known empty without a query (partitioned parents are asked).
    expect(tables.every((t) => t.sample_rows.length === 0 && t.sample_error === undefined)).toBe(true);
    expect(tables.filter((t) => t.row_estimate === 0).length).toBeGreaterThanOrEqual(500);
    const artist = table(result.tables, 'musicbrainz.artist');
    expect(artist.columns.find((c) => c.name === 'id')).toMatchObject({ primary_key: true, default: "nextval('musicbrainz.artist_id_seq'::regclass)" });
  });

  it('spider_de_all: 845 tables in 163 schemas, non-ASCII names quoted everywhere', async () => {
    const result = await sde.introspect(SAMPLES);
    expect(result.catalogQueries).toBe(3);
    expect(result.tables).toHaveLength(845);
    expect(new Set(result.tables.map((t) => t.schema)).size).toBe(163);
    const nonAscii = result.tables.filter((t) => /[^\p{ASCII}]/u.test(t.name));
    expect(nonAscii).toHaveLength(109);
    // Every sample query ran: a badly quoted name would have failed.
    expect(result.tables.filter((t) => t.sample_error)).toEqual([]);
    const keywords = table(result.tables, 'academic.publikation_schlüsselwort');
    expect(keywords.name).toBe('publikation_schlüsselwort');
    expect(keywords.foreign_keys.map((fk) => fk.referenced_table)).toContain('schlüsselwort');
    const activity = table(result.tables, 'activity_1.aktivität');
    expect(activity.sample_rows.length).toBe(3);

    const count = await sde.executeReadOnly(`SELECT count(*) AS n FROM ${quoteQualified('postgres', 'activity_1', 'aktivität')}`, {
      maxRows: 1,
      timeoutMs: 5000,
    });
    expect(count.rows[0].n).toBe(activity.row_estimate);

    const { markdown } = renderSchemaMarkdown(result.tables, { dialect: 'postgres', budgetChars: 1_000_000 });
    expect(markdown).toContain('## activity_1."aktivität" (table, ~16 rows)');
  });

  it('mixed case, spaces, quotes and keywords survive introspection and sampling', async () => {
    await odd.query(`CREATE SCHEMA "Sales Dept"`);
    await odd.query(`CREATE TABLE "Sales Dept"."Order Items" ("Größe" int PRIMARY KEY, "a""quote" text, "select" text, "MixedCase" text)`);
    await odd.query(`COMMENT ON TABLE "Sales Dept"."Order Items" IS 'one line per ordered item'`);
    await odd.query(`COMMENT ON COLUMN "Sales Dept"."Order Items"."Größe" IS 'size in cm'`);
    await odd.query(`INSERT INTO "Sales Dept"."Order Items" VALUES (1, 'x', 'y', 'z')`);
    const result = await open(odd.target({ id: 'intro-odd' })).introspect(SAMPLES);
    const items = table(result.tables, '"Sales Dept"."Order Items"');
    expect(items).toMatchObject({ schema: 'Sales Dept', name: 'Order Items', comment: 'one line per ordered item' });
    expect(items.columns.map((c) => c.name)).toEqual(['Größe', 'a"quote', 'select', 'MixedCase']);
    expect(items.columns[0]).toMatchObject({ primary_key: true, comment: 'size in cm' });
    expect(items.sample_rows).toEqual([{ Größe: 1, 'a"quote': 'x', select: 'y', MixedCase: 'z' }]);
    const { markdown } = renderSchemaMarkdown(result.tables, { dialect: 'postgres', budgetChars: 10_000 });
    expect(markdown).toContain('## "Sales Dept"."Order Items" (table');
    expect(markdown).toContain('- "Größe" integer PK — size in cm');
    expect(markdown).toContain('- "a""quote" text');
    expect(markdown).toContain('- "select" text');
    expect(markdown).toContain('- "MixedCase" text');
  });

  it('a failing or slow table gets sample_error, the rest are sampled, and sampling cannot write', async () => {
    await odd.query(`CREATE TABLE notes (id int PRIMARY KEY, body text, pic bytea)`);
    await odd.query(`INSERT INTO notes VALUES (1, repeat('é', 1000), decode(repeat('ff', 5000), 'hex'))`);
    await odd.query(`CREATE VIEW broken AS SELECT 1 / 0 AS x`);
    await odd.query(`CREATE VIEW slow AS SELECT pg_sleep(5) IS NULL AS s`);
    await odd.query(`CREATE TABLE written (note text)`);
    await odd.query(`CREATE FUNCTION sneaky() RETURNS int VOLATILE LANGUAGE plpgsql AS $$ BEGIN INSERT INTO written VALUES ('x'); RETURN 1; END $$`);
    await odd.query(`CREATE VIEW sneaky_view AS SELECT sneaky() AS n`);
    const started = Date.now();
    const result = await open(odd.target({ id: 'intro-odd-errors' })).introspect({ ...SAMPLES, sampleTimeoutMs: 400 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(table(result.tables, 'broken').sample_error).toBe('division by zero');
    expect(table(result.tables, 'slow').sample_error).toBe('the query ran longer than 0.4 s and was stopped');
    expect(table(result.tables, 'sneaky_view').sample_error).toMatch(/cannot execute INSERT in a read-only transaction/);
    expect(await odd.query('SELECT * FROM written')).toEqual([]);
    const notes = table(result.tables, 'notes');
    expect(notes.sample_error).toBeUndefined();
    expect(notes.sample_rows[0].body).toBe(`${'é'.repeat(200)}…`);
    expect(notes.sample_rows[0].pic).toEqual({ $bytes: 5000 });
    expect(table(result.tables, 'written').sample_rows).toEqual([]); // empty: known without a query
  });
});

describe('MySQL at scale and with unusual names', () => {
  let spider: SpiderDeMysql;
  let account: MysqlAccount;
  let chinookDb: MysqlDatabase;

  beforeAll(async () => {
    // Databases a*–c* of spider_de_all (about 40), renamed with a per-run prefix.
    spider = await loadSpiderDeMysql({ only: (name) => name < 'd' });
    cleanups.push(() => spider.drop());
    account = await createMysqlAccount(spider.prefix);
    cleanups.push(() => account.drop());
    chinookDb = await createMysqlDatabase('intro_chinook');
    cleanups.push(chinookDb.drop);
    await loadMysqlChinook(chinookDb);
  }, 180_000);

  it('without a database, sees every database the account may read, in the same number of catalog queries', async () => {
    const adapter = open(mysqlTarget(null, { id: 'intro-spider', user: account.user, password: account.password }));
    const result = await adapter.introspect(SAMPLES);
    const [expected] = await mysqlAdminQuery<{ n: number }>(
      `SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA LIKE ?`,
      [`${spider.prefix.replaceAll('_', '\\_')}%`],
    );
    expect(spider.databases.length).toBeGreaterThan(30);
    expect(new Set(result.tables.map((t) => t.schema))).toEqual(new Set(spider.databases));
    expect(result.tables).toHaveLength(Number(expected.n));
    expect(result.tables.length).toBeGreaterThan(150);
    expect(result.catalogQueries).toBe(3);
    expect(result.tables.filter((t) => t.sample_error)).toEqual([]);
    const activity = table(result.tables, `${spider.prefix}activity_1.aktivität`);
    expect(activity.sample_rows).toHaveLength(3);
    const { markdown } = renderSchemaMarkdown(result.tables, { dialect: 'mysql', budgetChars: 1_000_000 });
    expect(markdown).toContain(`## ${spider.prefix}activity_1.\`aktivität\``);
    const chinook = await open(chinookDb.target({ id: 'intro-chinook-count' })).introspect(SAMPLES);
    expect(chinook.catalogQueries).toBe(result.catalogQueries);
  });

  it('mixed case, spaces, backticks; a view gone bad gets sample_error', async () => {
    await chinookDb.query("CREATE TABLE `Order Items` (`Größe` INT PRIMARY KEY COMMENT 'size in cm', `a``tick` TEXT, `select` TEXT) COMMENT 'items'");
    await chinookDb.query("INSERT INTO `Order Items` VALUES (1, 'x', 'y')");
    await chinookDb.query('CREATE VIEW `Gone View` AS SELECT `select` FROM `Order Items`');
    await chinookDb.query('ALTER TABLE `Order Items` DROP COLUMN `select`');
    const result = await open(chinookDb.target({ id: 'intro-my-odd' })).introspect(SAMPLES);
    const items = table(result.tables, 'Order Items');
    expect(items.comment).toBe('items');
    expect(items.columns.map((c) => [c.name, c.primary_key, c.comment])).toEqual([
      ['Größe', true, 'size in cm'],
      ['a`tick', false, null],
    ]);
    expect(items.sample_rows).toEqual([{ Größe: 1, 'a`tick': 'x' }]);
    expect(table(result.tables, 'Gone View')).toMatchObject({ kind: 'view', sample_rows: [] });
    expect(table(result.tables, 'Gone View').sample_error).toMatch(/references invalid table|Unknown column/i);
    expect(table(result.tables, 'Track').sample_rows).toHaveLength(3);
  });
});

describe('SQLite with many tables and unusual names', () => {
  it('needs as many catalog queries for 300 tables as for Chinook; quoted names work; a runaway view is stopped', async () => {
    const file = path.join(tmpDir, 'many.sqlite');
    const db = new Database(file);
    for (let i = 0; i < 300; i++) db.exec(`CREATE TABLE t${i} (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES t0)`);
    db.exec(`CREATE TABLE "Order ""Items""" ("Größe" INTEGER PRIMARY KEY, note TEXT)`);
    db.exec(`INSERT INTO "Order ""Items""" VALUES (1, '${'ü'.repeat(300)}')`);
    db.exec(`CREATE VIEW runaway AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c`);
    db.close();
    const result = await open(sqliteTarget(file, { id: 'intro-many' })).introspect({ ...SAMPLES, sampleTimeoutMs: 500 });
    const chinook = await open(sqliteTarget(sqliteChinookPath(), { id: 'intro-lite-2' })).introspect(SAMPLES);
    expect(result.tables).toHaveLength(302);
    expect(result.catalogQueries).toBe(3);
    expect(result.catalogQueries).toBe(chinook.catalogQueries);
    const odd = table(result.tables, 'Order "Items"');
    expect(odd.columns[0]).toMatchObject({ name: 'Größe', primary_key: true });
    expect(odd.sample_rows[0].note).toBe(`${'ü'.repeat(200)}…`);
    expect(table(result.tables, 't5').foreign_keys).toEqual([
      { name: null, columns: ['parent'], referenced_schema: 'main', referenced_table: 't0', referenced_columns: ['id'] },
    ]);
    expect(table(result.tables, 'runaway').sample_error).toBe('the query ran longer than 0.5 s and was stopped');
    expect(table(result.tables, 't299').sample_error).toBeUndefined(); // sampled after the runaway view was stopped
  });

  it('a view over a dropped table does not break the catalog of the others', async () => {
    const file = path.join(tmpDir, 'broken.sqlite');
    const db = new Database(file);
    db.exec(`CREATE TABLE keep (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO keep VALUES (1, 'a');
             CREATE TABLE doomed (id INTEGER); CREATE VIEW orphan AS SELECT id FROM doomed; DROP TABLE doomed;`);
    db.close();
    const result = await open(sqliteTarget(file, { id: 'intro-broken' })).introspect(SAMPLES);
    expect(result.tables.map((t) => t.name)).toEqual(['keep', 'orphan']);
    expect(table(result.tables, 'keep')).toMatchObject({ columns: [expect.objectContaining({ name: 'id' }), expect.objectContaining({ name: 'name' })], sample_rows: [{ id: 1, name: 'a' }] });
    expect(table(result.tables, 'orphan')).toMatchObject({ columns: [], sample_error: 'no such table: main.doomed' });
  });
});
