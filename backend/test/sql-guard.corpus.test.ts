import { describe, expect, it } from 'vitest';
import { loadGoldCorpora } from '../src/sql-guard/gold-corpora.js';
import { ParserSqlGuard } from '../src/sql-guard/index.js';
import { sharedPath } from '@aigis/test-support/env';

/**
 * Real gold SQL written by other people must pass: a guard that refuses valid read-only queries would
 * break the product as surely as one that lets writes through. Sizes are asserted so an empty or
 * mis-split corpus cannot pass silently. (Numbers per corpus: bench/guard-corpus.bench.ts.)
 */
const EXPECTED_SIZES: Record<string, number> = {
  'defog postgres (verified gold variants)': 487,
  'BIRD mini-dev postgres': 500,
  'BIRD mini-dev mysql': 500,
  'defog mysql (questions_gen + instruct)': 465,
  'BIRD mini-dev sqlite': 500,
  'defog sqlite (questions_gen + instruct)': 467,
};

const guard = new ParserSqlGuard();
const corpora = loadGoldCorpora(sharedPath('benchmarks'));

describe('gold corpora pass the guard of their dialect', () => {
  it('loads every corpus at its known size', () => {
    expect(Object.fromEntries(corpora.map((c) => [c.name, c.queries.length]))).toEqual(EXPECTED_SIZES);
  });

  for (const corpus of corpora) {
    it(`${corpus.dialect}: accepts all of ${corpus.name}, returning each statement unchanged but for trailing semicolons`, async () => {
      const rejected: string[] = [];
      const altered: string[] = [];
      for (const query of corpus.queries) {
        const verdict = await guard.check(corpus.dialect, query.sql);
        if (!verdict.ok) {
          rejected.push(`${query.id}: ${verdict.reason}`);
        } else if (verdict.sql !== query.sql.trim().replace(/[\s;]+$/, '')) {
          altered.push(query.id);
        }
      }
      expect(rejected).toEqual([]);
      expect(altered).toEqual([]);
    });
  }

  it('accepts every corpus under a table policy that hides a table none of them reads (the policy reader understands real SQL)', async () => {
    const tablePolicy = { allowed: [], excluded: ['aigis_hidden_table', 'aigis_hidden_schema.*'] };
    const rejected: string[] = [];
    for (const corpus of corpora) {
      for (const query of corpus.queries) {
        const verdict = await guard.check(corpus.dialect, query.sql, { tablePolicy });
        if (!verdict.ok) rejected.push(`${corpus.dialect} ${query.id}: ${verdict.reason}`);
      }
    }
    expect(rejected).toEqual([]);
  });

  it('sees a top-level LIMIT exactly where the gold SQL ends with one', async () => {
    // In these corpora a top-level LIMIT is always the last clause; a LIMIT in a subquery is not.
    for (const corpus of corpora) {
      for (const query of corpus.queries) {
        const verdict = await guard.check(corpus.dialect, query.sql);
        const endsWithLimit = /\bLIMIT\s+\d+(\s*(,|OFFSET)\s*\d+)?\s*;?\s*$/i.test(query.sql);
        expect({ id: query.id, limit: verdict.ok && verdict.hasTopLevelLimit }).toEqual({ id: query.id, limit: endsWithLimit });
      }
    }
  });
});
