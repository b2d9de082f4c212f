/**
 * How the SQL guard fares on the public gold corpora, and how long one check takes.
 * Run: npm run build -w backend && npm run bench:guard  (ROUNDS=5 to time more passes).
 * Prints, per corpus: total, accepted, rejected (first reasons), median and p99 time per check.
 */
import { performance } from 'node:perf_hooks';
import { loadGoldCorpora, type GoldCorpus } from '../src/sql-guard/gold-corpora.js';
import { ParserSqlGuard } from '../src/sql-guard/index.js';
import { parseWith, type Grammar } from '../src/sql-guard/node-sql-parser.js';
import { sharedPath } from '@aigis/test-support/env';

const ROUNDS = Number(process.env.ROUNDS ?? 3);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;
}

function micros(ms: number): string {
  return `${(ms * 1000).toFixed(0)} µs`;
}

async function measure(guard: ParserSqlGuard, corpus: GoldCorpus) {
  const rejected: { id: string; reason: string }[] = [];
  const times: number[] = [];
  // Round 0 lets the JIT settle and collects the verdicts; the timed rounds follow.
  for (let round = 0; round <= ROUNDS; round++) {
    for (const query of corpus.queries) {
      const start = performance.now();
      const verdict = await guard.check(corpus.dialect, query.sql);
      if (round > 0) times.push(performance.now() - start);
      if (round === 0 && !verdict.ok) rejected.push({ id: query.id, reason: verdict.reason });
    }
  }
  times.sort((a, b) => a - b);
  return { rejected, median: percentile(times, 0.5), p99: percentile(times, 0.99), max: times.at(-1) ?? 0 };
}

/** Which node-sql-parser grammar reads each query (SQLite's own parser stands in where none does). */
function grammarShare(corpus: GoldCorpus): string {
  if (corpus.dialect === 'postgres') return 'libpg-query';
  const grammars: Grammar[] = corpus.dialect === 'mysql' ? ['MySQL', 'MariaDB'] : ['sqlite'];
  const counts = new Map<string, number>();
  for (const query of corpus.queries) {
    const text = query.sql.trim().replace(/[\s;]+$/, '');
    const used = grammars.find((grammar) => {
      try {
        parseWith([grammar], text);
        return true;
      } catch {
        return false;
      }
    });
    const key = used ?? (corpus.dialect === 'sqlite' ? 'SQLite fallback' : 'none');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key} ${n}`).join(', ');
}

async function main(): Promise<void> {
  const guard = new ParserSqlGuard();
  const coldStart = performance.now();
  await guard.warmUp();
  console.log(`warm-up (PostgreSQL WASM + grammars): ${(performance.now() - coldStart).toFixed(0)} ms`);
  console.log(`node ${process.version}, ${ROUNDS} timed rounds per corpus after one untimed\n`);

  const rows: string[][] = [];
  for (const corpus of loadGoldCorpora(sharedPath('benchmarks'))) {
    const result = await measure(guard, corpus);
    const total = corpus.queries.length;
    rows.push([
      corpus.name,
      corpus.dialect,
      String(total),
      String(total - result.rejected.length),
      String(result.rejected.length),
      micros(result.median),
      micros(result.p99),
      micros(result.max),
      grammarShare(corpus),
    ]);
    for (const { id, reason } of result.rejected.slice(0, 5)) console.log(`  rejected ${corpus.name} ${id}: ${reason}`);
  }

  const header = ['corpus', 'dialect', 'total', 'accepted', 'rejected', 'median', 'p99', 'max', 'parsed by'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(['', line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
