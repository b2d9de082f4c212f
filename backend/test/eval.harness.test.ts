import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareBird } from '../eval/bird.js';
import { prepareDefog } from '../eval/defog.js';
import type { PreparedBenchmark } from '../eval/benchmark.js';
import { parseEvalArgs } from '../eval/options.js';
import { runEval } from '../eval/runner.js';
import type { EvalReport } from '../eval/report.js';
import { ModelRegistry } from '../src/llm/model-registry.js';
import { ApiClient } from './support/api-client.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeRequest } from '@aigis/test-support/fake-openai';
import { firstUserQuestion, SQL_WRITER_MARK } from '@aigis/test-support/scripted-analyst';
import { messageFor } from '../eval/benchmark.js';
import { startTestApp } from './support/test-app.js';

/**
 * The accuracy harness end to end (the built API as its own process, the defog databases on PostgreSQL, the
 * scripted model): replaying the gold SQL scores 100 %, replaying corrupted SQL scores (near) 0 %, and the score
 * reaches GET /api/models.
 */
const LIMIT = 3;

describe('npm run eval (scripted model, defog on PostgreSQL)', () => {
  let defog: PreparedBenchmark;
  let dataDir: string;
  const log: string[] = [];
  const run = (model: string, scripted: 'gold' | 'wrong-column' | 'wrong-filter', store = false) =>
    runEval(
      { model, benchmark: 'defog', limit: LIMIT, examples: 'off', concurrency: 2, timeoutS: 120, out: path.join(dataDir, 'eval'), store, scripted },
      { env: { DATA_DIR: dataDir }, log: (line) => log.push(line), benchmark: defog },
    );
  let gold: EvalReport;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-eval-test-'));
    defog = await prepareDefog(LIMIT);
    gold = await run('Gold-Replay', 'gold', true);
  }, 240_000);

  afterAll(async () => {
    await defog?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes the questions in turn from each database', () => {
    expect(new Set(defog.questions.map((q) => q.db)).size).toBe(LIMIT);
  });

  it('scores the replayed gold SQL 100 %, with calls, tokens and latency per question', () => {
    const [off] = gold.runs;
    expect(gold.runs).toHaveLength(1);
    expect(off!.summary).toMatchObject({ questions: LIMIT, correct: LIMIT, score: 1, no_result: 0, with_errors: 0 });
    for (const q of off!.questions) {
      expect(q.correct).toBe(true);
      expect(q.generated_sql).toBe(defog.questions.find((d) => d.id === q.id)!.gold[0]);
      // The assistant's call, the SQL writer's, the assistant's answer.
      expect(q.model_calls).toBe(3);
      expect(q.prompt_tokens).toBeGreaterThan(0);
      expect(q.completion_tokens).toBeGreaterThan(0);
      expect(q.latency_ms).toBeGreaterThan(0);
    }
  });

  it('writes report.json and report.md', () => {
    const dirs = fs.readdirSync(path.join(dataDir, 'eval')).filter((d) => d.endsWith('-Gold-Replay-defog'));
    expect(dirs).toHaveLength(1);
    const json = JSON.parse(fs.readFileSync(path.join(dataDir, 'eval', dirs[0]!, 'report.json'), 'utf8')) as EvalReport;
    expect(json.runs[0]!.questions).toHaveLength(LIMIT);
    const markdown = fs.readFileSync(path.join(dataDir, 'eval', dirs[0]!, 'report.md'), 'utf8');
    expect(markdown).toContain(`| off | **100.0%** | ${LIMIT} / ${LIMIT} |`);
    expect(markdown).toContain('Scripted model');
  });

  it.each(['wrong-column', 'wrong-filter'] as const)('scores replayed %s SQL near 0 %', async (mode) => {
    const report = await run(`corrupt-${mode}`, mode);
    const [off] = report.runs;
    expect(off!.summary.correct).toBe(0);
    for (const q of off!.questions) {
      expect(q.correct).toBe(false);
      expect(q.reason).not.toBe('');
    }
  }, 120_000);

  it('--examples both: runs off then on, and only the on run puts the other fold\'s gold SQL into the SQL writer\'s prompt', async () => {
    let scripted: FakeOpenAI | undefined;
    const report = await runEval(
      { model: 'Gold-Both', benchmark: 'defog', limit: LIMIT, examples: 'both', concurrency: 2, timeoutS: 120, out: path.join(dataDir, 'eval'), store: false, scripted: 'gold' },
      { env: { DATA_DIR: dataDir }, log: (line) => log.push(line), benchmark: defog, onScriptedModel: (model) => (scripted = model) },
    );
    expect(report.runs.map((r) => r.examples)).toEqual(['off', 'on']);
    for (const run of report.runs) expect(run.summary).toMatchObject({ questions: LIMIT, correct: LIMIT, score: 1 });
    expect(report.examples!.added).toBeGreaterThan(0);
    expect(report.examples!.rejected).toEqual([]);
    expect(report.comparison).toMatchObject({ score_delta_points: 0, fixed: [], broken: [] });
    // The examples make the on run's prompts longer.
    expect(report.comparison!.prompt_tokens_delta).toBeGreaterThan(0);

    // The scripted model's request log: each question's SQL writer prompt, first in the off run, then in the on run.
    const writers = new Map<string, FakeRequest[]>();
    for (const request of scripted!.completions().filter((r) => r.system.includes(SQL_WRITER_MARK))) {
      writers.set(firstUserQuestion(request), [...(writers.get(firstUserQuestion(request)) ?? []), request]);
    }
    for (const q of defog.questions) {
      const [off, on, ...more] = writers.get(messageFor(q)) ?? [];
      expect(more, q.id).toEqual([]);
      expect(off?.system, q.id).not.toContain('<example_queries>');
      const block = /<example_queries>([\s\S]*)<\/example_queries>/.exec(on?.system ?? '')?.[1];
      expect(block, `${q.id}: the on run's SQL writer prompt has no examples`).toBeDefined();
      // Gold SQL of other questions of the same database, never the question's own answer.
      const others = defog.pool.filter((p) => p.db === q.db && p.id !== q.id && !q.gold.includes(p.gold[0]!));
      expect(others.some((p) => block!.includes(p.gold[0]!)), q.id).toBe(true);
      for (const gold of q.gold) expect(block, q.id).not.toContain(gold);
    }

    const markdown = fs.readFileSync(path.join(dataDir, 'eval', fs.readdirSync(path.join(dataDir, 'eval')).find((d) => d.endsWith('-Gold-Both-defog'))!, 'report.md'), 'utf8');
    expect(markdown).toContain(`| off | **100.0%** | ${LIMIT} / ${LIMIT} |`);
    expect(markdown).toContain(`| on | **100.0%** | ${LIMIT} / ${LIMIT} |`);
    expect(markdown).toContain('| category | examples off | examples on |');
    expect(markdown).toMatch(/## Examples on vs off\n\nScore \+?0 points with examples; 0 question\(s\) fixed, 0 broken; prompt tokens \+\d+/);
  }, 240_000);

  it('stores the score: GET /api/models shows the model\'s last score', async () => {
    const upstream: FakeOpenAI = await startFakeOpenAI({ models: ['replay'] });
    const modelsFile = path.join(dataDir, 'models.json');
    fs.writeFileSync(modelsFile, JSON.stringify({ models: [{ name: 'Gold-Replay', base_url: upstream.url, model: 'replay' }, { name: 'never-evaluated', base_url: upstream.url, model: 'replay' }] }));
    const app = await startTestApp({ DATA_DIR: dataDir, MODELS_CONFIG: modelsFile });
    try {
      await app.app.get(ModelRegistry).refresh();
      const api = new ApiClient(app.url);
      await api.register();
      const models = (await api.get('/api/models')).body as { name: string; last_score: unknown }[];
      expect(models.find((m) => m.name === 'Gold-Replay')?.last_score).toEqual({
        benchmark: 'defog',
        score: 1,
        correct: LIMIT,
        questions: LIMIT,
        examples: 'off',
        date: gold.runs[0]!.finished_at,
      });
      expect(models.find((m) => m.name === 'never-evaluated')?.last_score).toBeNull();
    } finally {
      await app.close();
      await upstream.close();
    }
  });
});

describe('eval options and inputs', () => {
  it('refuses bad options with a clear message', () => {
    expect(() => parseEvalArgs([], '/data')).toThrow(/--model: is required/);
    expect(() => parseEvalArgs(['--model', 'x', '--benchmark', 'spider'], '/data')).toThrow(/--benchmark/);
    expect(() => parseEvalArgs(['--model', 'x', '--limit', '0'], '/data')).toThrow(/--limit/);
    expect(() => parseEvalArgs(['--model', 'x', '--concurrency', '99'], '/data')).toThrow(/--concurrency/);
    expect(() => parseEvalArgs(['--model', 'x', '--bogus'], '/data')).toThrow(/bogus/);
    expect(parseEvalArgs(['--model', 'x', '--limit', '5', '--no-store'], '/data')).toMatchObject({ model: 'x', benchmark: 'defog', limit: 5, store: false, out: '/data/eval', examples: 'off' });
  });

  it('BIRD without its databases says where to get them', async () => {
    await expect(prepareBird(3, undefined)).rejects.toThrow(/databases are not in \.\.\/shared\/data/);
    await expect(prepareBird(3, os.tmpdir())).rejects.toThrow(/Missing: .*\.sqlite/);
  });
});
