import fs from 'node:fs';
import path from 'node:path';
import type { Dialect } from '@aigis/contracts';

/**
 * The public NL→SQL gold queries the guard is measured against (tests and bench/guard-corpus.bench.ts).
 * Not used at run time; the files stay in ../shared/data/benchmarks and are read from there.
 */
export interface GoldQuery {
  /** Where it came from: "questions_gen_mysql.csv:12#2" (row, alternative) or "bird:1471". */
  id: string;
  sql: string;
}

export interface GoldCorpus {
  name: string;
  dialect: Dialect;
  queries: GoldQuery[];
}

/** RFC 4180 CSV: quoted fields may hold commas, newlines and doubled quotes. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (ch !== '\r') {
      field += ch;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const [header = [], ...body] = rows;
  return body.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

/** Positions of characters outside '…', "…" and `…` (defog's gold SQL has no comments). */
function outsideQuotes(sql: string, visit: (ch: string, i: number) => void): void {
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
    } else {
      visit(ch, i);
    }
  }
}

/** defog's `query` column: `;` separates equally acceptable gold queries. */
export function splitAlternatives(query: string): string[] {
  const cuts = [-1];
  outsideQuotes(query, (ch, i) => {
    if (ch === ';') cuts.push(i);
  });
  cuts.push(query.length);
  return cuts
    .slice(1)
    .map((end, k) => query.slice(cuts[k]! + 1, end).trim())
    .filter((part) => part !== '');
}

/** Non-empty subsets of `items`, in order: {a, b} → a | b | a, b (defog counts each as correct). */
function subsets(items: string[]): string[] {
  const out: string[] = [];
  for (let mask = 1; mask < 1 << items.length; mask++) {
    out.push(items.filter((_, i) => mask & (1 << i)).join(', '));
  }
  return out;
}

/** Expands `{a.x, a.y}` alternative-column groups into every variant. */
export function expandBraces(sql: string): string[] {
  const groups: { start: number; end: number; options: string[] }[] = [];
  let open = -1;
  outsideQuotes(sql, (ch, i) => {
    if (ch === '{') open = i;
    if (ch === '}' && open !== -1) {
      groups.push({ start: open, end: i + 1, options: sql.slice(open + 1, i).split(',').map((s) => s.trim()) });
      open = -1;
    }
  });
  let variants = [''];
  let cursor = 0;
  for (const group of groups) {
    const literal = sql.slice(cursor, group.start);
    variants = variants.flatMap((prefix) => subsets(group.options).map((choice) => prefix + literal + choice));
    cursor = group.end;
  }
  return variants.map((prefix) => prefix + sql.slice(cursor));
}

function defogCsvCorpus(benchmarks: string, dialect: 'mysql' | 'sqlite'): GoldCorpus {
  const queries: GoldQuery[] = [];
  for (const file of [`questions_gen_${dialect}.csv`, `instruct_basic_${dialect}.csv`, `instruct_advanced_${dialect}.csv`]) {
    const rows = parseCsv(fs.readFileSync(path.join(benchmarks, 'defog_sql_eval', file), 'utf8'));
    rows.forEach((row, r) => {
      splitAlternatives(row.query ?? '')
        .flatMap(expandBraces)
        .forEach((sql, k) => queries.push({ id: `${file}:${r + 1}#${k + 1}`, sql }));
    });
  }
  return { name: `defog ${dialect} (questions_gen + instruct)`, dialect, queries };
}

function birdCorpus(benchmarks: string, dialect: Dialect): GoldCorpus {
  const file = { postgres: 'mini_dev_postgresql.json', mysql: 'mini_dev_mysql.json', sqlite: 'mini_dev_sqlite.json' }[dialect];
  const text = fs.readFileSync(path.join(benchmarks, 'bird_minidev', file), 'utf8');
  const items = JSON.parse(text) as { question_id: number; SQL: string }[];
  const queries = items.map((item) => ({ id: `bird:${item.question_id}`, sql: item.SQL }));
  return { name: `BIRD mini-dev ${dialect}`, dialect, queries };
}

function defogPostgresVerified(benchmarks: string): GoldCorpus {
  const lines = fs.readFileSync(path.join(benchmarks, 'defog_sql_eval', 'postgres_gold_verified.jsonl'), 'utf8').split('\n');
  const queries: GoldQuery[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    const item = JSON.parse(line) as { id: string; gold_sql_variants: string[] };
    item.gold_sql_variants.forEach((sql, k) => queries.push({ id: `${item.id}#${k + 1}`, sql }));
  }
  return { name: 'defog postgres (verified gold variants)', dialect: 'postgres', queries };
}

/** Every gold corpus, given ../shared/data/benchmarks. */
export function loadGoldCorpora(benchmarks: string): GoldCorpus[] {
  return [
    defogPostgresVerified(benchmarks),
    birdCorpus(benchmarks, 'postgres'),
    birdCorpus(benchmarks, 'mysql'),
    defogCsvCorpus(benchmarks, 'mysql'),
    birdCorpus(benchmarks, 'sqlite'),
    defogCsvCorpus(benchmarks, 'sqlite'),
  ];
}
