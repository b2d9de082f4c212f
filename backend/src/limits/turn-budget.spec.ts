import { describe, expect, it } from 'vitest';
import { TurnBudget } from './turn-budget.js';

describe('TurnBudget', () => {
  const budget = () => new TurnBudget({ toolCallsPerMessage: 3, toolCallsPerTurn: 5, modelCallsPerTurn: 4 });

  it('runs the first calls of a message and refuses the rest with a reason the model can read', () => {
    const b = budget();
    const calls = Array.from({ length: 60 }, (_, i) => i);
    const { run, refused } = b.admitToolCalls(calls);
    expect(run).toEqual([0, 1, 2]);
    expect(refused).toHaveLength(57);
    expect(refused[0].message).toMatch(/at most 3 tools \(LLM_MAX_TOOL_CALLS_PER_MESSAGE\)/);
    // A per-message refusal does not stop the turn: the model may go on with what it got.
    expect(b.stopped).toBeNull();
  });

  it('stops the turn once its tool calls are spent, refusing the calls past it', () => {
    const b = budget();
    b.admitToolCalls([1, 2, 3]);
    const second = b.admitToolCalls([4, 5, 6]);
    expect(second.run).toEqual([4, 5]);
    expect(second.refused.map((r) => r.call)).toEqual([6]);
    expect(second.refused[0].message).toMatch(/all 5 of its tool calls \(LLM_MAX_TOOL_CALLS_PER_TURN\)/);
    expect(b.stopped).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/LLM_MAX_TOOL_CALLS_PER_TURN/) });
  });

  it('counts model calls and refuses the one past the limit', () => {
    const b = budget();
    for (let i = 0; i < 4; i++) b.modelCall();
    expect(b.mayCallModel()).toBe(false);
    expect(() => b.modelCall()).toThrow(/more than 4 model calls.*LLM_MAX_MODEL_CALLS_PER_TURN/);
    expect(b.stopped?.code).toBe('RATE_LIMITED');
    expect(b.usage).toEqual({ toolCalls: 0, modelCalls: 4 });
  });
});
