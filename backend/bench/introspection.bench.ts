/**
 * Introspection benchmark: our adapters against LangChain's SqlDatabase (the usual way an LLM app gets a schema
 * with sample rows), on the same databases in the same run.
 *
 *   npm run build && node dist/bench/introspection.bench.js        (BENCH_RUNS=5 by default)
 *
 * Loads Chinook, MusicBrainz (schema only) and spider_de_all into the local PostgreSQL and MariaDB (its own
 * databases, dropped at the end). For each dataset: one untimed warm-up of each method, then BENCH_RUNS timed runs,
 * reporting the median.
 *
 * What is timed (connections are opened before the clock starts, for both, as a long-running server keeps them):
 * - ours: one adapter per dataset, reused across runs (the AdapterCache keeps pools): introspect(), metadata only
 *   (sampleRows 0) and with 3 sample rows per table (sampleConcurrency 8, poolMax 5: the server defaults).
 *   "ours, new pool" also times creating the adapter, connecting and closing it.
 * - SqlDatabase: `fromDataSourceParams` + `getTableInfo()` (all tables, 3 sample rows each). It reads one
 *   PostgreSQL schema or one MySQL database per instance, so it runs once per schema/database and the times are
 *   added up. Each DataSource is opened and warmed with one untimed run first.
 */
import os from 'node:os';
import { SqlDatabase } from '@langchain/classic/sql_db';
import { DataSource } from 'typeorm';
import type { AdapterSettings, ConnectionTarget, DialectAdapter } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import {
  createMysqlAccount,
  createMysqlDatabase,
  createPgDatabase,
  loadMusicBrainz,
  loadMysqlChinook,
  loadPgChinook,
  loadSpiderDeMysql,
  loadSpiderDePg,
  mysqlAdminQuery,
  mysqlTarget,
  type PgDatabase,
} from '../test/support/fixtures.js';
import { median } from './bench-util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SETTINGS: AdapterSettings = { connectTimeoutMs: 5000, poolMax: 5 };
const SAMPLE = { sampleRows: 3, sampleConcurrency: 8, sampleTimeoutMs: 3000 };

interface Dataset {
  name: string;
  dialect: 'postgres' | 'mysql';
  target: ConnectionTarget;
  /** One SqlDatabase per schema (PostgreSQL) or database (MySQL). */
  langchainSources: () => Promise<{ label: string; options: ConstructorParameters<typeof DataSource>[0] }[]>;
}

interface Row {
  dataset: string;
  dialect: string;
  tables: number;
  oursMeta: number;
  oursSamples: number;
  oursNewPool: number;
  langchain: number;
  langchainTables: number;
  catalogQueries: number;
  langchainQueries: number;
  langchainErrors: number;
}

async function timeOurs(
  adapter: DialectAdapter,
  sampleRows: number,
): Promise<{ ms: number; tables: number; catalogQueries: number }> {
  const started = performance.now();
  const result = await adapter.introspect({ ...SAMPLE, sampleRows });
  return { ms: performance.now() - started, tables: result.tables.length, catalogQueries: result.catalogQueries };
}

async function timeOursNewPool(target: ConnectionTarget): Promise<number> {
  const started = performance.now();
  const adapter = createAdapter(target, SETTINGS);
  try {
    await adapter.introspect(SAMPLE);
  } finally {
    await adapter.close();
  }
  return performance.now() - started;
}

/** SqlDatabase over every schema/database; returns the summed time of its own work, and how often it failed. */
async function timeLangchain(dataset: Dataset): Promise<{ ms: number; tables: number; queries: number; errors: number }> {
  const sources = await dataset.langchainSources();
  let ms = 0;
  let tables = 0;
  let queries = 0;
  let errors = 0;
  const log = console.log;
  for (const source of sources) {
    const dataSource = new DataSource(source.options);
    await dataSource.initialize();
    try {
      for (const timed of [false, true]) {
        // SqlDatabase console.logs every failing sample query (whole error objects); count them instead.
        console.log = () => void (timed && errors++);
        const started = performance.now();
        const db = await SqlDatabase.fromDataSourceParams({ appDataSource: dataSource, sampleRowsInTableInfo: 3 });
        await db.getTableInfo();
        if (!timed) continue;
        ms += performance.now() - started;
        tables += db.allTables.length;
        queries += 1 + db.allTables.length;
      }
    } finally {
      console.log = log;
      await dataSource.destroy();
    }
  }
  return { ms, tables, queries, errors };
}

async function measure(dataset: Dataset): Promise<Row> {
  process.stderr.write(`· ${dataset.name} (${dataset.dialect})\n`);
  const adapter = createAdapter(dataset.target, SETTINGS);
  try {
    await timeOurs(adapter, 0);
    await timeOurs(adapter, SAMPLE.sampleRows);
    await timeOursNewPool(dataset.target);
    const meta: number[] = [];
    const samples: number[] = [];
    const newPool: number[] = [];
    const lc: number[] = [];
    let tables = 0;
    let catalogQueries = 0;
    let lcRun = { ms: 0, tables: 0, queries: 0, errors: 0 };
    for (let i = 0; i < RUNS; i++) {
      meta.push((await timeOurs(adapter, 0)).ms);
      const s = await timeOurs(adapter, SAMPLE.sampleRows);
      samples.push(s.ms);
      tables = s.tables;
      catalogQueries = s.catalogQueries;
      newPool.push(await timeOursNewPool(dataset.target));
      lcRun = await timeLangchain(dataset);
      lc.push(lcRun.ms);
    }
    return {
      dataset: dataset.name,
      dialect: dataset.dialect === 'postgres' ? 'PostgreSQL' : 'MariaDB',
      tables,
      oursMeta: median(meta),
      oursSamples: median(samples),
      oursNewPool: median(newPool),
      langchain: median(lc),
      langchainTables: lcRun.tables,
      catalogQueries,
      langchainQueries: lcRun.queries,
      langchainErrors: lcRun.errors,
    };
  } finally {
    await adapter.close();
  }
}

function pgDataset(name: string, db: PgDatabase): Dataset {
  const target = db.target({ id: `bench-${db.name}` });
  return {
    name,
    dialect: 'postgres',
    target,
    langchainSources: async () => {
      const schemas = await db.query<{ nspname: string }>(
        `SELECT nspname FROM pg_namespace WHERE nspname !~ '^pg_' AND nspname <> 'information_schema' ORDER BY 1`,
      );
      return schemas.map(({ nspname }) => ({
        label: nspname,
        options: { type: 'postgres' as const, ...typeormLogin(target), database: db.name, schema: nspname },
      }));
    },
  };
}

function mysqlDataset(name: string, target: ConnectionTarget, databases: string[]): Dataset {
  return {
    name,
    dialect: 'mysql',
    target,
    langchainSources: async () =>
      databases.map((database) => ({
        label: database,
        options: { type: 'mysql' as const, ...typeormLogin(target), database },
      })),
  };
}

/** Where and as whom LangChain's TypeORM data source logs in: the same server and role as our adapter. */
function typeormLogin(target: ConnectionTarget) {
  return { host: target.host ?? undefined, port: target.port ?? undefined, username: target.user ?? undefined, password: target.password ?? undefined };
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    process.stderr.write('loading datasets…\n');
    const [pgChinook, pgMb, pgSde, myChinook] = await Promise.all([
      createPgDatabase('bench_chinook'),
      createPgDatabase('bench_mb'),
      createPgDatabase('bench_sde'),
      createMysqlDatabase('bench_chinook'),
    ]);
    cleanups.push(pgChinook.drop, pgMb.drop, pgSde.drop, myChinook.drop);
    await Promise.all([loadPgChinook(pgChinook), loadMusicBrainz(pgMb), loadSpiderDePg(pgSde), loadMysqlChinook(myChinook)]);
    const spider = await loadSpiderDeMysql();
    cleanups.push(spider.drop);
    // An account that sees only this run's spider databases: our adapter then introspects "all databases" of it.
    const account = await createMysqlAccount(spider.prefix);
    cleanups.push(account.drop);
    const [{ server_version: pgVersion }] = await pgChinook.query<{ server_version: string }>('SHOW server_version');
    const [myVersion] = await mysqlAdminQuery<{ v: string }>('SELECT VERSION() AS v');

    const datasets: Dataset[] = [
      pgDataset('Chinook', pgChinook),
      pgDataset('MusicBrainz (schema only)', pgMb),
      pgDataset('spider_de_all', pgSde),
      mysqlDataset('Chinook', myChinook.target({ id: 'bench-my-chinook' }), [myChinook.name]),
      mysqlDataset(
        'spider_de_all',
        mysqlTarget(null, { id: 'bench-my-spider', user: account.user, password: account.password }),
        spider.databases,
      ),
    ];
    const rows: Row[] = [];
    for (const dataset of datasets) rows.push(await measure(dataset));

    const lines = [
      `Introspection benchmark — median of ${RUNS} runs; PostgreSQL ${pgVersion}, MariaDB ${myVersion.v}, Node ${process.version}, ${os.cpus().length} CPUs`,
      '',
      '| dataset | dialect | tables (ours / SqlDatabase) | ours (metadata) | ours (with samples) | ours, new pool (with samples) | SqlDatabase (with samples) | speed-up | catalog round trips: ours / SqlDatabase (+ 1 sample query per table) |',
      '|---|---|---:|---:|---:|---:|---:|---:|---|',
      ...rows.map(
        (r) =>
          `| ${r.dataset} | ${r.dialect} | ${r.tables} / ${r.langchainTables} | ${ms(r.oursMeta)} | ${ms(r.oursSamples)} | ${ms(r.oursNewPool)} | ` +
          `${ms(r.langchain)}${r.langchainErrors ? ` (${r.langchainErrors} failed sample)` : ''} | ${(r.langchain / r.oursSamples).toFixed(1)}× | ` +
          `${r.catalogQueries} / ${r.langchainQueries - r.langchainTables} |`,
      ),
      '',
      'speed-up = SqlDatabase / ours (with samples). ours: metadata in a fixed number of catalog queries (run in parallel),',
      'and one sample query per table: pipelined on PostgreSQL (starting as soon as the table list is back; tables whose',
      'heap is empty have no rows and are not queried), over parallel connections on MariaDB. SqlDatabase: one instance',
      'per schema/database (it reads only one), one metadata query each plus one sample query per table, one after another.',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    process.stderr.write('dropping benchmark databases…\n');
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => process.stderr.write(`cleanup failed: ${String(err)}\n`));
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
