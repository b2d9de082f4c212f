import { describe, expect, it } from 'vitest';
import { scoreLabel } from './score-label';

describe('scoreLabel', () => {
  it('says the score, the benchmark and the day', () => {
    expect(scoreLabel({ benchmark: 'defog', score: 0.7388, correct: 232, questions: 314, examples: 'on', date: '2026-11-30T17:02:11.000Z' })).toBe('74% on defog, 2026-11-30');
  });

  it('says nothing without a score, and keeps odd values in range', () => {
    expect(scoreLabel(null)).toBeNull();
    expect(scoreLabel(undefined)).toBeNull();
    expect(scoreLabel({ benchmark: 'bird', score: 3, correct: 3, questions: 1, examples: 'off', date: 'yesterday' })).toBe('100% on bird');
  });
});
