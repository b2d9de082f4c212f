/**
 * The accuracy harness: `npm run build && npm run eval -- --model NAME [--benchmark defog|bird] [--limit N]`.
 * See eval/options.ts for every option and README "Accuracy".
 */
import { ConfigError, loadConfig } from '../src/config/env.schema.js';
import { parseEvalArgs, USAGE, UsageError } from './options.js';
import { runEval } from './runner.js';

async function main(): Promise<number> {
  let options;
  try {
    options = parseEvalArgs(process.argv.slice(2), loadConfig(process.env).dataDir);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const report = await runEval(options, { env: process.env, log: (line) => console.log(line) });
  for (const run of report.runs) {
    const s = run.summary;
    console.log(`${report.model} on ${report.benchmark}, examples ${run.examples}: ${(s.score * 100).toFixed(1)}% (${s.correct}/${s.questions}), latency p50 ${s.latency_ms.p50} ms, ${(run.wall_ms / 1000).toFixed(1)} s`);
  }
  if (report.comparison) {
    const c = report.comparison;
    console.log(`examples on vs off: ${c.score_delta_points >= 0 ? '+' : ''}${c.score_delta_points} points (${c.fixed.length} fixed, ${c.broken.length} broken), prompt tokens ${c.prompt_tokens_delta >= 0 ? '+' : ''}${c.prompt_tokens_delta}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
