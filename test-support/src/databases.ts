/**
 * Scratch PostgreSQL databases for tests and benchmarks, loaded from ../shared/data through the command-line
 * clients (fast, and they understand the dumps' client commands). Everything is named `aigis_t_<label>_<unique>`
 * so parallel test files, parallel runs and other people's databases on the same servers never collide.
 * No vitest imports: benchmarks use this from dist.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { sharedPath, TEST_PG_URL } from './env.js';

/** A name unique to this call: `aigis_t_<label>_<time><random>` (lower case, within MySQL's 64-character limit). */
export function uniqueName(label: string): string {
  const stamp = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const cleanLabel = label.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 30);
  return `aigis_t_${cleanLabel ? `${cleanLabel}_` : ''}${stamp}`;
}

/** Runs a command with `input` on stdin (a string, or a stream such as a gunzip), rejecting with its stderr tail. */
export function runCli(command: string, args: string[], input: string | NodeJS.ReadableStream, env: NodeJS.ProcessEnv = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr.trim().split('\n').slice(-5).join('\n')}`)),
    );
    child.stdin.on('error', () => undefined); // the exit code tells what went wrong
    if (typeof input === 'string') child.stdin.end(input);
    else input.pipe(child.stdin);
  });
}

function pgUrlFor(database: string, user?: string): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${encodeURIComponent(database)}`;
  if (user) {
    url.username = user;
    url.password = '';
  }
  return url.toString();
}

/** Runs a SQL script with psql (stops at the first error). `\restrict` lines are dropped for older psql versions. */
export function psqlScript(database: string, script: string | NodeJS.ReadableStream): Promise<void> {
  const args = ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', pgUrlFor(database), '-f', '-'];
  const input = typeof script === 'string' ? dropPsqlRestrict(script) : script;
  return runCli('psql', args, input, { PGOPTIONS: '--client-min-messages=warning' });
}

function dropPsqlRestrict(script: string): string {
  return script.replace(/^\\(un)?restrict .*$/gm, '');
}

export interface PgDatabase {
  name: string;
  /** TEST_PG_URL pointing at this database (its admin role), as a connection URL for the app. */
  url: string;
  /** Runs SQL as the admin role in this database. */
  query<R extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

async function pgAdminQuery<R>(database: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: pgUrlFor(database) });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as R[];
  } finally {
    await client.end();
  }
}

/** A new empty database on TEST_PG_URL's server; `drop()` removes it (closing any session still in it). */
export async function createPgDatabase(label: string): Promise<PgDatabase> {
  const adminDb = new URL(TEST_PG_URL).pathname.slice(1) || 'postgres';
  const name = uniqueName(label);
  await pgAdminQuery(adminDb, `CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8'`);
  return {
    name,
    url: pgUrlFor(name),
    query: (sql, params) => pgAdminQuery(name, sql, params),
    async drop() {
      await pgAdminQuery(adminDb, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/** Chinook (11 tables, snake_case). The script creates its own `chinook` database: that part is cut out. */
export async function loadPgChinook(db: Pick<PgDatabase, 'name'>): Promise<void> {
  const script = fs
    .readFileSync(sharedPath('postgres/chinook/Chinook_PostgreSql.sql'), 'utf8')
    .replace(/^\s*(DROP DATABASE IF EXISTS|CREATE DATABASE) chinook;\s*$/gim, '')
    .replace(/^\\c chinook;?\s*$/gim, '');
  await psqlScript(db.name, `${script}\nANALYZE;\n`);
}
