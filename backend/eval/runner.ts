import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiClient } from '../test/support/api-client.js';
import { startAppProcess, type AppProcess } from '@aigis/test-support/app-process';
import type { FakeOpenAI } from '@aigis/test-support/fake-openai';
import type { PreparedBenchmark } from './benchmark.js';
import { prepareBird } from './bird.js';
import { prepareDefog } from './defog.js';
import { createEvalConnections } from './eval-connections.js';
import { askQuestion, runGold, type GoldResult } from './ask-question.js';
import type { EvalOptions } from './options.js';
import { compareRuns, summarise, writeReports, type EvalReport, type RunReport } from './report.js';
import { startScriptedModel } from './scripted-model.js';
import { storeScores } from './store-scores.js';

/**
 * Storage, network and identity settings of the surrounding environment that the harness's own app must not
 * take: it runs on a fresh embedded DATA_DIR of its own, so nothing of the user's instance is touched.
 */
const NOT_FOR_THE_APP = /^(DATABASE_URL|MASTER_ENCRYPTION_KEY|PREVIOUS_ENCRYPTION_KEYS|DATA_DIR|SQLITE_ROOT|PORT|HOST|WORKERS|REGISTRATION|REGISTRATIONS_PER_HOUR|CORS_ORIGIN|TRUST_PROXY|DEMO_DATABASE|NODE_OPTIONS)$/;

export interface EvalDeps {
  /** The environment: the models' settings for the app, and where the score is stored (DATA_DIR / DATABASE_URL). */
  env: NodeJS.ProcessEnv;
  log(line: string): void;
  /** Databases prepared by the caller (kept open afterwards), e.g. by tests that run several times on them. */
  benchmark?: PreparedBenchmark;
  /**
   * With --scripted: given the scripted model once it listens, which then records every request (its `requests`
   * stay readable after the run), so a caller can check what reached the prompts.
   */
  onScriptedModel?(model: FakeOpenAI): void;
}

/**
 * `npm run eval`: prepares the benchmark's databases, starts the built API as its own process, creates the
 * connections through the API, asks every question through the agent (a thread per question), scores by execution
 * match, writes report.json and report.md, and stores the score per model.
 */
export async function runEval(options: EvalOptions, deps: EvalDeps): Promise<EvalReport> {
  const started = new Date();
  const examplesRuns: ('off' | 'on')[] = options.examples === 'both' ? ['off', 'on'] : [options.examples];
  const benchmark: PreparedBenchmark =
    deps.benchmark ?? (options.benchmark === 'bird' ? await prepareBird(options.limit, options.birdDir) : await prepareDefog(options.limit));
  let scripted: FakeOpenAI | undefined;
  let app: AppProcess | undefined;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-eval-'));
  try {
    let modelEnv: Record<string, string>;
    if (options.scripted) {
      scripted = await startScriptedModel(benchmark.questions, options.scripted, `scripted-${options.scripted}`, { record: deps.onScriptedModel !== undefined });
      deps.onScriptedModel?.(scripted);
      const config = path.join(scratch, 'models.json');
      fs.writeFileSync(config, JSON.stringify({ models: [{ name: options.model, base_url: scripted.url, model: `scripted-${options.scripted}` }] }));
      modelEnv = { MODELS_CONFIG: config };
    } else {
      modelEnv = Object.fromEntries(Object.entries(deps.env).filter((e): e is [string, string] => e[1] !== undefined && !NOT_FOR_THE_APP.test(e[0])));
      if (modelEnv.MODELS_CONFIG) modelEnv.MODELS_CONFIG = path.resolve(modelEnv.MODELS_CONFIG);
    }
    deps.log(`starting the API (${benchmark.questions.length} ${benchmark.name} questions, ${Object.keys(benchmark.connections).length} databases)`);
    app = await startAppProcess({
      ...modelEnv,
      ...benchmark.appEnv,
      DEMO_DATABASE: 'false',
      REGISTRATION: 'open',
      LOG_LEVEL: 'warn',
      ROW_LIMIT: '5000',
      USER_MAX_CONCURRENT_STREAMS: String(Math.max(3, options.concurrency)),
      USER_MAX_CONCURRENT_QUERIES: String(Math.max(4, options.concurrency * 2)),
    });
    const api = new ApiClient(app.url);
    await api.register(`eval-${Date.now()}@example.com`, `eval-${Math.random().toString(36).slice(2)}-password`);
    const model = await usableModel(api, options.model);

    const connections = await createEvalConnections(api, benchmark, examplesRuns.includes('on'));
    if (examplesRuns.includes('on')) deps.log(`examples: ${connections.examples.added} added, ${connections.examples.rejected.length} refused`);

    const gold = new Map<string, GoldResult[]>();
    for (const q of benchmark.questions) gold.set(q.id, await runGold(api, connections.forQuestion(q.id, q.db), q, benchmark.family));
    const goldFailures = [...gold.values()].flat().filter((g) => 'error' in g).length;
    if (goldFailures) deps.log(`warning: ${goldFailures} gold queries failed (see the report)`);

    const runs: RunReport[] = [];
    for (const examples of examplesRuns) {
      const runStarted = performance.now();
      deps.log(`run: ${model}, examples ${examples}`);
      const results = await inPool(benchmark.questions, options.concurrency, async (q, i) => {
        const result = await askQuestion(q, {
          api,
          model,
          connectionId: connections.forQuestion(q.id, q.db),
          knowledgeExamples: examples === 'on',
          family: benchmark.family,
          gold: gold.get(q.id)!,
          timeoutMs: options.timeoutS * 1000,
        });
        deps.log(`  ${String(i + 1).padStart(4)}/${benchmark.questions.length} ${result.correct ? 'ok  ' : 'FAIL'} ${q.id}${result.correct ? '' : `: ${result.reason}`}`);
        return result;
      });
      runs.push({ examples, finished_at: new Date().toISOString(), wall_ms: Math.round(performance.now() - runStarted), summary: summarise(results), questions: results });
    }

    const report: EvalReport = {
      model,
      benchmark: benchmark.name,
      scripted: options.scripted ?? null,
      limit: options.limit ?? null,
      started_at: started.toISOString(),
      finished_at: new Date().toISOString(),
      wall_ms: Date.now() - started.getTime(),
      gold_failures: goldFailures,
      examples: examplesRuns.includes('on') ? connections.examples : null,
      runs,
      comparison: compareRuns(runs),
    };
    const written = writeReports(report, options.out);
    deps.log(`report: ${written.json}\n        ${written.markdown}`);
    if (options.store) {
      await storeScores(report, deps.env);
      deps.log('score stored (GET /api/models shows it as the model\'s last score)');
    }
    return report;
  } finally {
    await app?.stop();
    await scripted?.close();
    if (!deps.benchmark) await benchmark.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The registry's name of the model (an alias resolves), once it is available; a clear error otherwise. */
async function usableModel(api: ApiClient, wanted: string, waitMs = 30_000): Promise<string> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const models = (await api.get('/api/models')).body as { name: string; aliases: string[]; available: boolean; reason?: string }[];
    const key = wanted.toLowerCase();
    const found = models.find((m) => m.name.toLowerCase() === key || m.aliases.some((a) => a.toLowerCase() === key));
    if (!found) {
      throw new Error(`no model "${wanted}" in the registry; configured: ${models.map((m) => m.name).join(', ') || 'none (set a provider variable or MODELS_CONFIG)'}`);
    }
    if (found.available) return found.name;
    // The first availability probe may still be under way.
    if (Date.now() > deadline) throw new Error(`model "${found.name}" is not available: ${found.reason ?? 'unknown reason'}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Maps with at most `size` at a time, keeping the input order. */
async function inPool<T, R>(items: T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return out;
}
