import fs from 'node:fs';
import path from 'node:path';
import { percentile } from '../bench/bench-util.js';
import type { QuestionResult } from './ask-question.js';

export interface RunSummary {
  questions: number;
  correct: number;
  /** correct / questions. */
  score: number;
  /** Questions whose answer had no query result, or errors on the way. */
  with_errors: number;
  no_result: number;
  latency_ms: { p50: number; p95: number; max: number };
  model_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  by_category: Record<string, { questions: number; correct: number }>;
  by_db: Record<string, { questions: number; correct: number }>;
}

export interface RunReport {
  examples: 'on' | 'off';
  finished_at: string;
  wall_ms: number;
  summary: RunSummary;
  questions: QuestionResult[];
}

export interface EvalReport {
  model: string;
  benchmark: 'defog' | 'bird';
  /** Set when the model was the scripted one (the harness's own check), not a real model. */
  scripted: string | null;
  limit: number | null;
  started_at: string;
  finished_at: string;
  wall_ms: number;
  gold_failures: number;
  /** With examples: how many gold queries of the other fold became example queries, and which were refused. */
  examples: { added: number; rejected: string[] } | null;
  runs: RunReport[];
  /** With --examples both: the examples-on run against the examples-off run on the same questions; null otherwise. */
  comparison: RunComparison | null;
}

/** What turning the examples on changed, question by question (same questions, same model). */
export interface RunComparison {
  /** Score on minus score off, in percentage points. */
  score_delta_points: number;
  /** Right with examples, wrong without. */
  fixed: string[];
  /** Wrong with examples, right without. */
  broken: string[];
  prompt_tokens_delta: number;
  model_calls_delta: number;
  latency_p50_delta_ms: number;
}

/** The examples-on run against the examples-off run, when both ran. */
export function compareRuns(runs: RunReport[]): RunComparison | null {
  const off = runs.find((r) => r.examples === 'off');
  const on = runs.find((r) => r.examples === 'on');
  if (!off || !on) return null;
  const rightOff = new Map(off.questions.map((q) => [q.id, q.correct]));
  const changed = (correct: boolean) => on.questions.filter((q) => rightOff.has(q.id) && q.correct === correct && rightOff.get(q.id) !== correct).map((q) => q.id);
  return {
    score_delta_points: Math.round((on.summary.score - off.summary.score) * 1000) / 10,
    fixed: changed(true),
    broken: changed(false),
    prompt_tokens_delta: on.summary.prompt_tokens - off.summary.prompt_tokens,
    model_calls_delta: on.summary.model_calls - off.summary.model_calls,
    latency_p50_delta_ms: on.summary.latency_ms.p50 - off.summary.latency_ms.p50,
  };
}

export function summarise(results: QuestionResult[]): RunSummary {
  const tally = (key: (r: QuestionResult) => string) => {
    const out: Record<string, { questions: number; correct: number }> = {};
    for (const r of results) {
      const entry = (out[key(r)] ??= { questions: 0, correct: 0 });
      entry.questions++;
      if (r.correct) entry.correct++;
    }
    return out;
  };
  const latencies = results.map((r) => r.latency_ms);
  const sum = (f: (r: QuestionResult) => number | null) => results.reduce((n, r) => n + (f(r) ?? 0), 0);
  const correct = results.filter((r) => r.correct).length;
  return {
    questions: results.length,
    correct,
    score: results.length ? correct / results.length : 0,
    with_errors: results.filter((r) => r.errors.length > 0).length,
    no_result: results.filter((r) => r.generated_sql === null).length,
    latency_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: Math.max(0, ...latencies) },
    model_calls: sum((r) => r.model_calls),
    prompt_tokens: sum((r) => r.prompt_tokens),
    completion_tokens: sum((r) => r.completion_tokens),
    by_category: tally((r) => r.category),
    by_db: tally((r) => r.db),
  };
}

const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

export function renderMarkdown(report: EvalReport): string {
  const lines = [
    `# Accuracy: ${report.model} on ${report.benchmark}`,
    '',
    `${report.started_at} → ${report.finished_at} (${(report.wall_ms / 1000).toFixed(1)} s)${report.limit ? `, --limit ${report.limit}` : ''}`,
    report.scripted ? `\nScripted model (\`--scripted ${report.scripted}\`): this checks the harness, it does not measure a real model.` : '',
    report.gold_failures ? `\n**${report.gold_failures} gold queries failed to run**: those questions cannot be answered right.` : '',
    report.examples
      ? `\nExamples: each database has two connections; each holds the other half of its questions' gold SQL as example queries (${report.examples.added} added, ${report.examples.rejected.length} refused), so no question sees its own answer.`
      : '',
    '',
    '| examples | score | correct | no result | with errors | latency p50 / p95 / max | model calls | prompt / completion tokens | wall |',
    '|---|---:|---:|---:|---:|---|---:|---|---:|',
    ...report.runs.map((r) => {
      const s = r.summary;
      return `| ${r.examples} | **${pct(s.score)}** | ${s.correct} / ${s.questions} | ${s.no_result} | ${s.with_errors} | ${s.latency_ms.p50} / ${s.latency_ms.p95} / ${s.latency_ms.max} ms | ${s.model_calls} | ${s.prompt_tokens} / ${s.completion_tokens} | ${(r.wall_ms / 1000).toFixed(1)} s |`;
    }),
  ];
  const c = report.comparison;
  if (c) {
    const signed = (n: number, unit = '') => `${n > 0 ? '+' : ''}${n}${unit}`;
    lines.push(
      '',
      '## Examples on vs off',
      '',
      `Score ${signed(c.score_delta_points, ' points')} with examples; ${c.fixed.length} question(s) fixed, ${c.broken.length} broken; prompt tokens ${signed(c.prompt_tokens_delta)}, model calls ${signed(c.model_calls_delta)}, latency p50 ${signed(c.latency_p50_delta_ms, ' ms')}.`,
    );
    if (c.fixed.length) lines.push('', `Fixed by examples: ${c.fixed.slice(0, 100).map(cell).join(', ')}${c.fixed.length > 100 ? ', …' : ''}`);
    if (c.broken.length) lines.push('', `Broken by examples: ${c.broken.slice(0, 100).map(cell).join(', ')}${c.broken.length > 100 ? ', …' : ''}`);
  }
  // Per category and per database, one column per run, so the runs read side by side.
  const runs = report.runs;
  for (const [title, of] of [['category', (r: RunReport) => r.summary.by_category], ['database', (r: RunReport) => r.summary.by_db]] as const) {
    const names = [...new Set(runs.flatMap((r) => Object.keys(of(r))))].sort();
    lines.push('', `| ${title} | ${runs.map((r) => `examples ${r.examples}`).join(' | ')} |`, `|---|${runs.map(() => '---:|').join('')}`);
    for (const name of names) lines.push(`| ${cell(name)} | ${runs.map((r) => (of(r)[name] ? `${of(r)[name]!.correct} / ${of(r)[name]!.questions}` : '—')).join(' | ')} |`);
  }
  for (const run of runs) {
    const wrong = run.questions.filter((q) => !q.correct);
    if (wrong.length) {
      lines.push('', `## Wrong with examples ${run.examples} (${wrong.length})`, '', '| question | why | errors |', '|---|---|---|');
      for (const q of wrong.slice(0, 200)) lines.push(`| ${cell(q.id)} | ${cell(q.reason)} | ${cell(q.errors.join('; '))} |`);
      if (wrong.length > 200) lines.push('', `… and ${wrong.length - 200} more (report.json has them all).`);
    }
  }
  return `${lines.filter((l, i) => l !== '' || lines[i - 1] !== '').join('\n')}\n`;
}

/** A table cell from untrusted text: one line, no pipes, bounded. */
function cell(text: string): string {
  return text.replace(/[\r\n|]+/g, ' ').slice(0, 300);
}

/** Writes report.json and report.md into `<out>/<time>-<model>-<benchmark>/`. */
export function writeReports(report: EvalReport, out: string): { json: string; markdown: string } {
  const stamp = report.started_at.replace(/[:.]/g, '-');
  const dir = path.join(out, `${stamp}-${report.model.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${report.benchmark}`);
  fs.mkdirSync(dir, { recursive: true });
  const json = path.join(dir, 'report.json');
  const markdown = path.join(dir, 'report.md');
  fs.writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(markdown, renderMarkdown(report));
  return { json, markdown };
}
