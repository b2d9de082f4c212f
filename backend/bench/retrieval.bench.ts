/**
 * Retrieval cost benchmark: what the connection's examples and the choice of the prompt's tables add to a question.
 *
 *   npm run build && npm run bench:retrieval        (BENCH_QUESTIONS=1000, BENCH_EXAMPLES=10000 by default)
 *
 * Production parts, in process: the real app (createApp, embedded SQLite app storage in a temp DATA_DIR, or
 * PostgreSQL storage with BENCH_DATABASE_URL) with spider_de_all (845 tables, 163 schemas) loaded into the local
 * PostgreSQL as a connection created through the API. 10,000 example queries are stored for that connection in
 * the knowledge store: the first BENCH_VERIFIED through ExamplesService.add (verified by running, as the API does),
 * the rest in bulk through the examples repository in one transaction (rows made by ExamplesService.newRow, not
 * run: 10,000 verifications would time PostgreSQL, not retrieval).
 *
 * Per question it times what a turn does: KnowledgeContext.examples (the stored revision, the cached BM25 index's
 * top k, the rendered block) and SchemaService.promptSchema (ownership, the cached introspection, ranking and the
 * rendered schema). A turn with one query asks for the prompt schema three times (the assistant before and after
 * ask_database, and the SQL writer; SchemaService keeps a schema's recent selections, so the second and third are
 * look-ups; the tables it renders are kept per schema too) and for examples once; "per turn" is those four calls in
 * a row. The index builds (once per examples
 * revision, once per introspected schema) and their memory are reported apart. Every question's top k is compared
 * with the MiniSearch reference ExampleIndex replaced (ids, order and scores), and every promptSchema answer with a
 * fresh schemaForQuestion, so a faster path cannot pass by selecting differently.
 *
 * Questions are made from the schema: for a random table, a German sentence with its words (not its exact name)
 * and one of its columns, every tenth naming the table outright. "table hit" = that table is among the tables given
 * in full; "example hit" = an example about that table is among the top k.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SchemaTable } from '@aigis/contracts';
import { TEST_PG_URL } from '@aigis/test-support/env';
import { APP_CONFIG } from '../src/config/config.module.js';
import type { AppConfig } from '../src/config/env.schema.js';
import { renderSchemaMarkdown } from '../src/connections/introspection/schema-markdown.js';
import { schemaForQuestion } from '../src/connections/introspection/schema-selection.js';
import { buildRelevanceIndex, words } from '../src/connections/introspection/table-relevance.js';
import { SchemaService } from '../src/connections/schema.service.js';
import { exampleKey } from '../src/knowledge/content-key.js';
import { ExamplesService } from '../src/knowledge/examples.service.js';
import { KnowledgeContext } from '../src/knowledge/knowledge-context.service.js';
import { ExampleIndex } from '../src/knowledge/retrieval/example-index.js';
import { KnowledgeStore } from '../src/storage/repositories/knowledge/knowledge-store.js';
import { ApiClient } from '../test/support/api-client.js';
import { createPgDatabase, loadSpiderDePg } from '../test/support/fixtures.js';
import { miniSearchOver } from '../test/support/minisearch-oracle.js';
import { startTestApp } from '../test/support/test-app.js';
import { fmt, percentile } from './bench-util.js';

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 1000);
const EXAMPLES = Number(process.env.BENCH_EXAMPLES ?? 10_000);
const VERIFIED = Number(process.env.BENCH_VERIFIED ?? 25);
const TARGET_MS = 20;
/** Prompt schema requests of a turn with one query: the assistant twice, the SQL writer once. */
const SCHEMA_CALLS_PER_TURN = 3;

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A small deterministic generator, so two runs ask the same questions and store the same examples. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const qualified = (t: SchemaTable) => (t.schema ? `${quote(t.schema)}.${quote(t.name)}` : quote(t.name));

/** Example questions and SQL of the kinds people save, about random tables (several per table). */
function exampleFor(table: SchemaTable, next: () => number, n: number): { question: string; sql: string } {
  const column = table.columns[Math.floor(next() * table.columns.length)]!;
  const about = words(table.name).join(' ');
  const by = words(column.name).join(' ');
  const limit = 5 + (n % 20);
  switch (n % 4) {
    case 0:
      return { question: `Wie viele ${about} gibt es je ${by}?`, sql: `SELECT ${quote(column.name)}, COUNT(*) AS anzahl FROM ${qualified(table)} GROUP BY 1 ORDER BY 2 DESC LIMIT ${limit}` };
    case 1:
      return { question: `Zeige die ersten ${limit} ${about} mit ${by}`, sql: `SELECT * FROM ${qualified(table)} ORDER BY ${quote(column.name)} LIMIT ${limit}` };
    case 2:
      return { question: `How many distinct ${by} values do the ${about} have?`, sql: `SELECT COUNT(DISTINCT ${quote(column.name)}) AS n FROM ${qualified(table)}` };
    default:
      return { question: `Welche ${about} haben kein ${by}? (${limit})`, sql: `SELECT * FROM ${qualified(table)} WHERE ${quote(column.name)} IS NULL LIMIT ${limit}` };
  }
}

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

interface Series {
  label: string;
  times: number[];
}
const line = (s: Series) =>
  `${s.label.padEnd(52)} p50 ${fmt(percentile(s.times, 50), 2).padStart(6)} ms   p95 ${fmt(percentile(s.times, 95), 2).padStart(6)} ms   max ${fmt(Math.max(...s.times), 2).padStart(7)} ms`;

async function time<T>(series: Series, work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const out = await work();
  series.times.push(performance.now() - started);
  return out;
}

async function main(): Promise<void> {
  const load = os.loadavg();
  const startedAt = new Date();
  const db = await createPgDatabase('bench_retrieval');
  const app = await startTestApp({ ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}), KNOWLEDGE_MAX_EXAMPLES: String(Math.max(EXAMPLES, 1)) });
  try {
    await loadSpiderDePg(db);
    const config = app.app.get<AppConfig>(APP_CONFIG);
    const schemas = app.app.get(SchemaService);
    const context = app.app.get(KnowledgeContext);
    const examplesService = app.app.get(ExamplesService);
    const store = app.app.get(KnowledgeStore);

    const api = new ApiClient(app.url);
    const user = await api.register();
    const url = new URL(TEST_PG_URL);
    url.pathname = `/${db.name}`;
    const created = await api.post('/api/connections', { name: 'spider_de_all', url: url.toString(), review: 'never' });
    if (created.status !== 201) throw new Error(`could not create the connection: HTTP ${created.status} ${JSON.stringify(created.body)}`);
    const connectionId = String(created.body.id);

    let started = performance.now();
    const schema = await schemas.get(user.id, connectionId);
    const introspectMs = performance.now() - started;
    const tables = schema.tables;
    if (schema.markdown_mode === 'full' || schema.markdown_mode === 'no_samples') throw new Error(`the schema fits the prompt (${schema.markdown_mode}): nothing to select`);

    // The examples: a few through the service (verified on the database), the rest in bulk through the repository.
    const nextExample = random(7);
    const examples: { question: string; sql: string; table: SchemaTable }[] = [];
    const keys = new Set<string>();
    for (let n = 0; examples.length < EXAMPLES; n++) {
      const table = tables[Math.floor(nextExample() * tables.length)]!;
      const example = exampleFor(table, nextExample, n);
      const key = exampleKey(example.question, example.sql);
      if (keys.has(key)) continue;
      keys.add(key);
      examples.push({ ...example, table });
    }
    const tableOfExample = new Map(examples.map((e) => [exampleKey(e.question, e.sql), e.table]));
    started = performance.now();
    const verified = examples.slice(0, VERIFIED);
    for (const e of verified) await examplesService.add(user.id, connectionId, { question: e.question, sql: e.sql }, { source: 'manual' });
    const verifyMs = performance.now() - started;
    started = performance.now();
    const notRun = { row_count: 0, columns: '[]', elapsed_ms: 0, verified_at: new Date().toISOString() };
    await store.transaction(async (repos) => {
      for (const e of examples.slice(VERIFIED)) {
        const row = examplesService.newRow(connectionId, e, exampleKey(e.question, e.sql), notRun, { source: 'import' });
        if (!(await repos.examples.insert(row))) throw new Error('a generated example was a duplicate');
      }
    });
    const bulkMs = performance.now() - started;
    const stored = await store.examples.count(connectionId);
    if (stored !== EXAMPLES) throw new Error(`stored ${stored} examples, expected ${EXAMPLES}`);

    // Questions.
    const next = random(42);
    const questions = Array.from({ length: QUESTIONS }, (_, i) => {
      const table = tables[Math.floor(next() * tables.length)]!;
      const column = table.columns[Math.floor(next() * table.columns.length)];
      const about = i % 10 === 0 ? `${table.schema}.${table.name}` : words(table.name).join(' ');
      return { table, text: `Wie viele ${about} gibt es je ${column ? words(column.name).join(' ') : 'Jahr'}, sortiert nach Anzahl, für die letzten drei Jahre?` };
    });

    // Index builds, once per revision / introspected schema, and their memory (heap after a full GC).
    let before = heapMb();
    started = performance.now();
    const rows = await store.examples.listForIndex(connectionId);
    const listMs = performance.now() - started;
    started = performance.now();
    let exampleIndex: ExampleIndex | null = new ExampleIndex(rows);
    const exampleBuildMs = performance.now() - started;
    const exampleIndexMb = heapMb() - before;
    before = heapMb();
    started = performance.now();
    let relevanceIndex: ReturnType<typeof buildRelevanceIndex> | null = buildRelevanceIndex(tables);
    const relevanceBuildMs = performance.now() - started;
    // A 1–2 MB structure is within the heap's noise: measured over five copies.
    before = heapMb();
    const copies = Array.from({ length: 5 }, () => buildRelevanceIndex(tables));
    const relevanceIndexMb = (heapMb() - before) / copies.length;
    copies.length = 0;
    // What SchemaService's renderings kept per schema can reach: each table rendered with and without samples.
    const renderedMb = (2 * 2 * renderSchemaMarkdown(tables, { dialect: schema.dialect, budgetChars: Number.MAX_SAFE_INTEGER }).markdown.length) / 1024 / 1024;
    // The production path's first calls: they build the same indexes inside the services.
    started = performance.now();
    await context.examples(user.id, connectionId, questions[0]!.text);
    const firstExamplesMs = performance.now() - started;
    started = performance.now();
    await schemas.promptSchema(user.id, connectionId, questions[0]!.text);
    const firstSchemaMs = performance.now() - started;

    // The reference ranking (MiniSearch, which ExampleIndex replaced): every question's top k must be the same.
    const reference = miniSearchOver(rows);

    // Warm-up (JIT), untimed.
    for (const q of questions.slice(0, 50)) {
      await context.examples(user.id, connectionId, q.text);
      await schemas.promptSchema(user.id, connectionId, q.text);
    }

    const exampleCalls: Series = { label: 'examples: KnowledgeContext.examples', times: [] };
    const exampleTop: Series = { label: '  of which BM25 top-k in memory (ExampleIndex.top)', times: [] };
    const schemaCalls: Series = { label: 'tables: SchemaService.promptSchema', times: [] };
    const selection: Series = { label: '  of which ranking + rendering (schemaForQuestion)', times: [] };
    const pair: Series = { label: 'examples + tables, one call each', times: [] };
    const turn: Series = { label: `per turn: examples + ${SCHEMA_CALLS_PER_TURN} prompt schemas`, times: [] };
    let tableHits = 0;
    let exampleHits = 0;
    let sameAsReference = 0;
    const k = config.KNOWLEDGE_EXAMPLES_K;
    for (const q of questions) {
      const block = await time(exampleCalls, () => context.examples(user.id, connectionId, q.text));
      const prompt = await time(schemaCalls, () => schemas.promptSchema(user.id, connectionId, q.text));
      pair.times.push(exampleCalls.times.at(-1)! + schemaCalls.times.at(-1)!);
      // The turn's question differs from the calls above by a space (same words, same selection), so its first
      // prompt schema is not one SchemaService already keeps.
      const asked = `${q.text} `;
      await time(turn, async () => {
        await schemas.promptSchema(user.id, connectionId, asked);
        await schemas.promptSchema(user.id, connectionId, asked);
        await context.examples(user.id, connectionId, asked);
        await schemas.promptSchema(user.id, connectionId, asked);
      });
      const top = await time(exampleTop, () => exampleIndex!.top(q.text, k));
      const selected = await time(selection, () => schemaForQuestion(relevanceIndex!, q.text, { dialect: schema.dialect, budgetChars: config.SCHEMA_PROMPT_BUDGET }));
      if (selected.markdown !== prompt.markdown) throw new Error('the benchmark\'s own selection differs from promptSchema\'s');
      if (selected.detailed.includes(q.table)) tableHits++;
      const expected = reference(q.text, k);
      if (expected.length === top.length && expected.every((e, i) => e.id === top[i]!.example.id && e.score === top[i]!.score)) sameAsReference++;
      if (top.some((r) => tableOfExample.get(exampleKey(r.example.question, r.example.sql)) === q.table)) exampleHits++;
      if (top.length && !block?.includes(top[0]!.example.sql)) throw new Error('the examples block lacks the best example');
      if (prompt.markdown.length > config.SCHEMA_PROMPT_BUDGET) throw new Error(`the prompt schema exceeds its budget (${prompt.markdown.length} > ${config.SCHEMA_PROMPT_BUDGET})`);
    }
    exampleIndex = null;
    relevanceIndex = null;

    const p95 = (s: Series) => percentile(s.times, 95);
    const met = (s: Series) => (p95(s) < TARGET_MS ? 'met' : 'NOT met');
    const storage = process.env.BENCH_DATABASE_URL ? 'PostgreSQL (BENCH_DATABASE_URL)' : 'embedded SQLite';
    const summary = [
      '',
      '==================== retrieval benchmark summary ====================',
      `run ${startedAt.toISOString()} on ${os.cpus().length} CPU(s), node ${process.version}; load average at start ${load.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min)${load[0]! > os.cpus().length * 0.5 ? '  <-- machine under load' : ''}`,
      `schema: spider_de_all, ${tables.length} tables in ${new Set(tables.map((t) => t.schema)).size} schemas (introspection ${fmt(introspectMs / 1000)} s); prompt budget ${config.SCHEMA_PROMPT_BUDGET} characters`,
      `examples: ${stored} stored for the connection in ${storage}: ${verified.length} through ExamplesService.add (verified by running, ${fmt(verifyMs / 1000)} s), ${stored - verified.length} in bulk through the repository in one transaction (not run, ${fmt(bulkMs / 1000)} s); top k = ${k}`,
      '',
      'index builds (once per examples revision / per introspected schema):',
      `  examples: read ${rows.length} rows ${fmt(listMs)} ms + BM25 index ${fmt(exampleBuildMs)} ms; heap of rows + index ${fmt(exampleIndexMb)} MB; first KnowledgeContext.examples call (builds it) ${fmt(firstExamplesMs)} ms`,
      `  tables:   relevance index ${fmt(relevanceBuildMs)} ms; heap ${fmt(relevanceIndexMb)} MB (mean of 5 copies); first promptSchema call (builds it) ${fmt(firstSchemaMs)} ms`,
      `            rendered tables kept per schema (as questions need them): at most ${fmt(renderedMb)} MB (every table with and without samples, UTF-16)`,
      '',
      `per question (${QUESTIONS} questions, after 50 warm-up):`,
      ...[exampleCalls, exampleTop, schemaCalls, selection, pair, turn].map((s) => `  ${line(s)}`),
      '',
      `hit rates: question's table given in full ${tableHits}/${QUESTIONS} (${fmt((100 * tableHits) / QUESTIONS)} %); an example about it in the top ${k} ${exampleHits}/${QUESTIONS} (${fmt((100 * exampleHits) / QUESTIONS)} %)`,
      `examples' top ${k} identical (ids, order, scores) to the MiniSearch reference: ${sameAsReference}/${QUESTIONS}${sameAsReference === QUESTIONS ? '' : '  <-- the ranking changed'}`,
      `target (examples + relevant-table selection under ${TARGET_MS} ms per question, p95, ${EXAMPLES} examples, ${tables.length} tables):`,
      `  one call each: ${met(pair)} (p95 ${fmt(p95(pair), 2)} ms);  whole turn (${SCHEMA_CALLS_PER_TURN} prompt schemas + examples): ${met(turn)} (p95 ${fmt(p95(turn), 2)} ms)`,
      '=====================================================================',
    ];
    console.log(summary.join('\n'));
  } finally {
    await app.close();
    await db.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
