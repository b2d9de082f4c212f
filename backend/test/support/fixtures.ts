/**
 * Real databases for tests and benchmarks, loaded from ../shared/data into databases this process creates and drops.
 * Everything is named `aigis_t_<label>_<unique>` so parallel test files, parallel runs and other people's databases
 * on the same servers never collide. Scratch PostgreSQL databases come from `@aigis/test-support` (the browser tests
 * use them too); here they also give our adapters' targets. No vitest imports: the benchmark uses this file from dist.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import {
  createPgDatabase as createScratchPgDatabase,
  type PgDatabase as ScratchPgDatabase,
  psqlScript,
  runCli,
  uniqueName,
} from '@aigis/test-support/databases';
import { sharedPath, TEST_MYSQL_URL, TEST_PG_URL } from '@aigis/test-support/env';
import mysql from 'mysql2/promise';
import type { ConnectionTarget } from '../../src/connections/dialects/dialect-adapter.js';

export { loadPgChinook, uniqueName } from '@aigis/test-support/databases';

interface MysqlAdmin {
  host: string;
  port: number;
  user: string;
  password: string;
}

function mysqlAdmin(): MysqlAdmin {
  const url = new URL(TEST_MYSQL_URL);
  return {
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
  };
}

/** Runs a SQL script with the mariadb client (the password travels in MYSQL_PWD, never on the command line). */
export function mariadbScript(database: string | null, script: string | NodeJS.ReadableStream): Promise<void> {
  const admin = mysqlAdmin();
  const args = ['--protocol=TCP', '-h', admin.host, '-P', String(admin.port), '-u', admin.user, '--default-character-set=utf8mb4'];
  if (database) args.push('--database', database);
  const command = fs.existsSync('/usr/bin/mariadb') || !fs.existsSync('/usr/bin/mysql') ? 'mariadb' : 'mysql';
  return runCli(command, args, script, { MYSQL_PWD: admin.password });
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL

export interface PgDatabase extends ScratchPgDatabase {
  /** Target for our adapters, as the admin role (or `user`). */
  target(overrides?: Partial<ConnectionTarget>): ConnectionTarget;
}

export function pgTarget(database: string, overrides: Partial<ConnectionTarget> = {}): ConnectionTarget {
  const url = new URL(TEST_PG_URL);
  return {
    id: `pg:${database}`,
    dialect: 'postgres',
    host: url.hostname,
    port: Number(url.port || 5432),
    database,
    user: decodeURIComponent(url.username || 'postgres'),
    password: decodeURIComponent(url.password) || null,
    ssl: false,
    ...overrides,
  };
}

/** A target as the API's field form takes it (POST /api/connections), the way a person would type it in. */
export function connectionFields(target: ConnectionTarget): { dialect: ConnectionTarget['dialect']; host?: string; port?: number; database?: string; user?: string; password?: string } {
  return {
    dialect: target.dialect,
    ...(target.host ? { host: target.host } : {}),
    ...(target.port ? { port: target.port } : {}),
    ...(target.database ? { database: target.database } : {}),
    ...(target.user ? { user: target.user } : {}),
    ...(target.password ? { password: target.password } : {}),
  };
}

export async function createPgDatabase(label: string): Promise<PgDatabase> {
  const db = await createScratchPgDatabase(label);
  return { ...db, target: (overrides) => pgTarget(db.name, overrides) };
}

export const DEFOG_DATABASES = [
  'academic',
  'advising',
  'atis',
  'broker',
  'car_dealership',
  'derm_treatment',
  'ewallet',
  'geography',
  'restaurants',
  'scholar',
  'yelp',
] as const;
export type DefogDatabase = (typeof DEFOG_DATABASES)[number];

/** One defog sql-eval database (ewallet lives in schema consumer_div). */
export async function loadPgDefog(db: PgDatabase, name: DefogDatabase): Promise<void> {
  await psqlScript(db.name, fs.readFileSync(sharedPath(`postgres/defog/${name}.sql`), 'utf8') + '\nANALYZE;\n');
}

/** All 11 defog databases, each in its own database; returns them by name. */
export async function createPgDefogDatabases(): Promise<Record<DefogDatabase, PgDatabase>> {
  const out = {} as Record<DefogDatabase, PgDatabase>;
  for (const name of DEFOG_DATABASES) {
    out[name] = await createPgDatabase(`defog_${name}`);
    await loadPgDefog(out[name], name);
  }
  return out;
}

/**
 * MusicBrainz, schema only (516 tables in 9 schemas, 897 foreign keys). The dump creates the extensions cube,
 * earthdistance and unaccent (postgresql-contrib) and an ICU collation, so the admin role must be a superuser and
 * the server built with ICU.
 */
export async function loadMusicBrainz(db: PgDatabase): Promise<void> {
  await psqlScript(db.name, fs.readFileSync(sharedPath('many_tables/musicbrainz/musicbrainz_schema_only.pg_dump.sql'), 'utf8'));
}

/** spider_de_all for PostgreSQL: 163 schemas, 845 tables, 109 of them with non-ASCII names. */
export async function loadSpiderDePg(db: PgDatabase): Promise<void> {
  const script = zlib.gunzipSync(fs.readFileSync(sharedPath('many_tables/spider_de_all.pg_dump.sql.gz'))).toString('utf8');
  await psqlScript(db.name, `${script}\nANALYZE;\n`);
}

/** A login role in `db` that may only read (CONNECT, USAGE, SELECT on every table), or also write. */
export async function createPgRole(db: PgDatabase, options: { canWrite: boolean }): Promise<{ name: string; drop(): Promise<void> }> {
  const name = uniqueName(options.canWrite ? 'writer' : 'reader');
  const schemas = (
    await db.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname !~ '^pg_' AND nspname <> 'information_schema'`)
  ).map((r) => `"${r.nspname.replaceAll('"', '""')}"`);
  const privileges = options.canWrite ? 'SELECT, INSERT, UPDATE, DELETE' : 'SELECT';
  await db.query(`CREATE ROLE "${name}" LOGIN`);
  await db.query(`GRANT CONNECT ON DATABASE "${db.name}" TO "${name}"`);
  for (const s of schemas) {
    await db.query(`GRANT USAGE ON SCHEMA ${s} TO "${name}"`);
    await db.query(`GRANT ${privileges} ON ALL TABLES IN SCHEMA ${s} TO "${name}"`);
  }
  return {
    name,
    async drop() {
      await db.query(`DROP OWNED BY "${name}"`);
      await db.query(`DROP ROLE IF EXISTS "${name}"`);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// MySQL / MariaDB

export interface MysqlDatabase {
  name: string;
  target(overrides?: Partial<ConnectionTarget>): ConnectionTarget;
  query<R = unknown>(sql: string, params?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

export async function mysqlAdminQuery<R = unknown>(sql: string, params: unknown[] = [], database?: string): Promise<R[]> {
  const admin = mysqlAdmin();
  const conn = await mysql.createConnection({ ...admin, database, charset: 'UTF8MB4_UNICODE_CI', multipleStatements: false });
  try {
    const [rows] = await conn.query(sql, params);
    return rows as R[];
  } finally {
    await conn.end();
  }
}

export function mysqlTarget(database: string | null, overrides: Partial<ConnectionTarget> = {}): ConnectionTarget {
  const admin = mysqlAdmin();
  return {
    id: `mysql:${database ?? '*'}`,
    dialect: 'mysql',
    host: admin.host,
    port: admin.port,
    database,
    user: admin.user,
    password: admin.password || null,
    ssl: false,
    ...overrides,
  };
}

export async function createMysqlDatabase(label: string): Promise<MysqlDatabase> {
  const name = uniqueName(label);
  await mysqlAdminQuery(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  return {
    name,
    target: (overrides) => mysqlTarget(name, overrides),
    query: (sql, params) => mysqlAdminQuery(sql, params, name),
    async drop() {
      await mysqlAdminQuery(`DROP DATABASE IF EXISTS \`${name}\``);
    },
  };
}

/** Chinook for MySQL (PascalCase: `InvoiceLine`). The script's own `Chinook` database is replaced by ours. */
export async function loadMysqlChinook(db: MysqlDatabase): Promise<void> {
  const script = fs
    .readFileSync(sharedPath('mysql/chinook/Chinook_MySql.sql'), 'utf8')
    .replace(/^\s*(DROP DATABASE IF EXISTS|CREATE DATABASE) `Chinook`;\s*$/gim, '')
    .replace(/^\s*USE `Chinook`;\s*$/gim, '');
  await mariadbScript(db.name, script);
}

/** A MySQL account: name, password, and how to remove it. */
export interface MysqlAccount {
  user: string;
  password: string;
  drop(): Promise<void>;
}

/**
 * An account whose privileges cover only databases starting with `databasePrefix`. Besides limiting what it may do,
 * this isolates introspection without a database: information_schema shows an account only what it may see, so
 * other runs' databases on the shared server stay invisible.
 */
export async function createMysqlAccount(databasePrefix: string, privileges = 'SELECT'): Promise<MysqlAccount> {
  const user = uniqueName('acct').slice(0, 32);
  const password = randomBytes(12).toString('hex');
  const pattern = `${databasePrefix.replaceAll('_', '\\_')}%`;
  await mysqlAdminQuery(`CREATE USER '${user}'@'%' IDENTIFIED BY '${password}'`);
  await mysqlAdminQuery(`GRANT ${privileges} ON \`${pattern}\`.* TO '${user}'@'%'`);
  return {
    user,
    password,
    async drop() {
      await mysqlAdminQuery(`DROP USER IF EXISTS '${user}'@'%'`);
    },
  };
}

export interface SpiderDeMysql {
  /** The prefix that replaced `sde_` in every database name. */
  prefix: string;
  databases: string[];
  drop(): Promise<void>;
}

/**
 * spider_de_all for MySQL/MariaDB: 163 databases, fixed names `sde_*` in the dump. They are renamed to
 * `aigis_t_sde_<unique>_*` so runs cannot collide (see createMysqlAccount for seeing only them).
 * `only` loads a subset (by original name without `sde_`), which keeps tests fast.
 */
export async function loadSpiderDeMysql(options: { only?: (name: string) => boolean } = {}): Promise<SpiderDeMysql> {
  const prefix = `${uniqueName('sde')}_`;
  const dump = zlib.gunzipSync(fs.readFileSync(sharedPath('many_tables/spider_de_all.mysql_dump.sql.gz'))).toString('utf8');
  const marker = /^--\n-- Current Database: `sde_([^`]+)`\n--\n/gm;
  const starts = [...dump.matchAll(marker)];
  const header = dump.slice(0, starts[0]?.index ?? 0);
  const sections = starts.map((m, i) => ({ name: m[1], text: dump.slice(m.index, starts[i + 1]?.index ?? dump.length) }));
  const chosen = sections.filter((s) => !options.only || options.only(s.name));
  const renamed = chosen.map((s) =>
    s.text.replace(/^(CREATE DATABASE .*?|USE |-- Current Database: )`sde_([^`]+)`/gm, (_m, lead: string, rest: string) => `${lead}\`${prefix}${rest}\``),
  );
  const databases = chosen.map((s) => `${prefix}${s.name}`);
  const result: SpiderDeMysql = {
    prefix,
    databases,
    async drop() {
      for (const d of databases) await mysqlAdminQuery(`DROP DATABASE IF EXISTS \`${d}\``);
    },
  };
  try {
    await mariadbScript(null, header + renamed.join(''));
  } catch (err) {
    await result.drop();
    throw err;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// SQLite

export function sqliteChinookPath(): string {
  return sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite');
}

export function sqliteTarget(filePath: string, overrides: Partial<ConnectionTarget> = {}): ConnectionTarget {
  return { id: `sqlite:${filePath}`, dialect: 'sqlite', filePath, ...overrides };
}
