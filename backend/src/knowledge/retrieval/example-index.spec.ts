import { describe, expect, it } from 'vitest';
import { ExampleIndex, type IndexableExample } from './example-index.js';
import { miniSearchOver } from '../../../test/support/minisearch-oracle.js';

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const WORDS = 'customer order invoice line product artist album track genre employee kunde rechnung bestellung stadt land jahr umsatz preis menge name id datum total revenue status'.split(' ');
const TEMPLATES = [
  (a: string, b: string) => ({ question: `How many ${a} per ${b}?`, sql: `SELECT ${b}, COUNT(*) FROM ${a}s GROUP BY ${b}` }),
  (a: string, b: string) => ({ question: `Wie viele ${a} gibt es je ${b}?`, sql: `SELECT "${b}", COUNT(*) AS anzahl FROM "${a}" GROUP BY 1` }),
  (a: string, b: string) => ({ question: `Top ${a} by ${b} ${b}`, sql: `SELECT * FROM ${a} ORDER BY ${b} DESC LIMIT 10` }),
  // Nothing but stop words and keywords in the question: the SQL alone matches.
  (a: string) => ({ question: 'What is the total?', sql: `SELECT SUM(total) FROM ${a}` }),
];

function corpus(size: number, seed: number): IndexableExample[] {
  const next = random(seed);
  const pick = () => WORDS[Math.floor(next() * WORDS.length)]!;
  return Array.from({ length: size }, (_, i) => ({ id: `e${i}`, ...TEMPLATES[i % TEMPLATES.length]!(pick(), pick()) }));
}

describe('ExampleIndex', () => {
  const examples = corpus(3000, 7);
  const index = new ExampleIndex(examples);
  const next = random(99);
  const questions = [
    ...Array.from({ length: 150 }, () => `Wie viele ${WORDS[Math.floor(next() * WORDS.length)]} ${WORDS[Math.floor(next() * WORDS.length)]} gibt es?`),
    // A repeated word counts each time; unknown words are ignored; ties between identical examples.
    'customer customer orders by city',
    'Wie viele kunde gibt es je kunde und jahr, sortiert nach umsatz je kunde?',
    'revenue per Kunde und Jahr (umsatz)',
    'unknownword anotherunknown',
    'top artist album',
  ];

  it('ranks exactly as MiniSearch did: the same examples, in the same order, with the same scores', () => {
    const miniSearchTop = miniSearchOver(examples);
    let compared = 0;
    for (const question of questions) {
      const expected = miniSearchTop(question, 10);
      const actual = index.top(question, 10).map((r) => ({ id: r.example.id, score: r.score }));
      expect(actual, question).toEqual(expected);
      compared += expected.length;
    }
    // The comparison compared something.
    expect(compared).toBeGreaterThan(1000);
  });

  it('answers the same twice (its per-question scratch is reset)', () => {
    const first = index.top('invoice line per product', 5);
    index.top('kunde stadt', 5);
    expect(index.top('invoice line per product', 5)).toEqual(first);
    expect(first.length).toBe(5);
  });

  it('keeps one example per id, the later copy in the earlier place, as the store would give them', () => {
    const twice = [...examples.slice(0, 50), { ...examples[3]!, question: 'Which genre sells most?' }];
    const deduplicated = new ExampleIndex(twice);
    expect(deduplicated.size).toBe(50);
    expect(deduplicated.top('genre sells', 1)[0]?.example.question).toBe('Which genre sells most?');
    expect(deduplicated.top('genre sells most', 3).map((r) => r.example.id)).toEqual(miniSearchOver(twice)('genre sells most', 3).map((r) => r.id));
  });

  it('gives nothing for k ≤ 0, an empty index, or a question without words', () => {
    expect(index.top('customer', 0)).toEqual([]);
    expect(new ExampleIndex([]).top('customer', 5)).toEqual([]);
    expect(index.top('how many of the', 5)).toEqual([]);
    expect(index.top('zzz qqq', 5)).toEqual([]);
  });
});
