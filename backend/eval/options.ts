import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { SCRIPTED_MODES, type ScriptedMode } from './scripted-model.js';

export const USAGE = `npm run eval -- --model NAME [options]

Asks a benchmark's questions through the API and the agent (one thread per question) and scores the answers by
execution match. Writes report.json and report.md; stores the score per model (GET /api/models shows it).

  --model NAME          a model of the registry, configured as for \`npm start\` (provider variables, MODELS_CONFIG)
  --benchmark NAME      defog (default: defog sql-eval, 314 questions, PostgreSQL) or bird (BIRD mini-dev, SQLite)
  --limit N             at most N questions, taken in turn from each database
  --examples MODE       off (default), on or both: whether the connections' example queries reach the prompts
  --concurrency N       questions at a time (default 1, at most 8)
  --timeout-s S         per question (default 300)
  --out DIR             where the reports go (default DATA_DIR/eval)
  --no-store            do not store the score
  --bird-dir DIR        BIRD's databases (<DIR>/<db_id>/<db_id>.sqlite)
  --scripted MODE       use the scripted model instead of a real one: gold, wrong-column or wrong-filter
                        (the harness's own check; no network)

Databases are loaded into the PostgreSQL server of TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres)
under fresh names and dropped afterwards.`;

export interface EvalOptions {
  model: string;
  benchmark: 'defog' | 'bird';
  limit?: number;
  examples: 'on' | 'off' | 'both';
  concurrency: number;
  timeoutS: number;
  out: string;
  store: boolean;
  birdDir?: string;
  scripted?: ScriptedMode;
}

const schema = z.strictObject({
  model: z.string({ error: 'is required' }).trim().min(1).max(100),
  benchmark: z.enum(['defog', 'bird']).default('defog'),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
  examples: z.enum(['on', 'off', 'both']).default('off'),
  concurrency: z.coerce.number().int().min(1).max(8).default(1),
  'timeout-s': z.coerce.number().int().min(5).max(3600).default(300),
  out: z.string().min(1).optional(),
  'no-store': z.boolean().default(false),
  'bird-dir': z.string().min(1).optional(),
  scripted: z.enum(SCRIPTED_MODES as [ScriptedMode, ...ScriptedMode[]]).optional(),
  help: z.boolean().optional(),
});

export class UsageError extends Error {}

/** Parses the command line; `dataDir` is where reports go by default. */
export function parseEvalArgs(argv: string[], dataDir: string): EvalOptions | 'help' {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        model: { type: 'string' },
        benchmark: { type: 'string' },
        limit: { type: 'string' },
        examples: { type: 'string' },
        concurrency: { type: 'string' },
        'timeout-s': { type: 'string' },
        out: { type: 'string' },
        'no-store': { type: 'boolean' },
        'bird-dir': { type: 'string' },
        scripted: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n'));
  const o = parsed.data;
  return {
    model: o.model,
    benchmark: o.benchmark,
    ...(o.limit !== undefined ? { limit: o.limit } : {}),
    examples: o.examples,
    concurrency: o.concurrency,
    timeoutS: o['timeout-s'],
    out: path.resolve(o.out ?? path.join(dataDir, 'eval')),
    store: !o['no-store'],
    ...(o['bird-dir'] ? { birdDir: path.resolve(o['bird-dir']) } : {}),
    ...(o.scripted ? { scripted: o.scripted } : {}),
  };
}
