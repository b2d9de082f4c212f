import { describe, expect, it } from 'vitest';
import { foldsOf, messageFor, spreadAcrossDatabases, type EvalQuestion } from './benchmark.js';

const q = (id: string, db: string, instructions = ''): EvalQuestion => ({ id, db, category: 'c', question: `question ${id}`, instructions, gold: ['SELECT 1'] });
const pool = [q('a1', 'a'), q('a2', 'a'), q('a3', 'a'), q('b1', 'b'), q('b2', 'b'), q('c1', 'c')];

describe('benchmark questions', () => {
  it('a limit takes questions in turn from each database, always the same ones', () => {
    expect(spreadAcrossDatabases(pool, 4).map((x) => x.id)).toEqual(['a1', 'b1', 'c1', 'a2']);
    expect(spreadAcrossDatabases(pool, 100)).toHaveLength(6);
    expect(spreadAcrossDatabases(pool, undefined)).toBe(pool);
  });

  it('splits each database into two folds, so an example is never the question asked', () => {
    const folds = foldsOf(pool);
    expect(['a1', 'a2', 'a3', 'b1', 'b2', 'c1'].map((id) => folds.get(id))).toEqual([0, 1, 0, 0, 1, 0]);
  });

  it('sends the domain rules after the question', () => {
    expect(messageFor(q('x', 'a', '  amounts are in cents '))).toBe('question x\n\namounts are in cents');
    expect(messageFor(q('x', 'a'))).toBe('question x');
  });
});
