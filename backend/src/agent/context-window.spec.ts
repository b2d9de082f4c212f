import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { answerEveryToolCall, answerReserve, historyBudget, selectContext } from './context-window.js';
import { countMessageTokens, countTextTokens, countTokens, tokenMemoSize } from './token-count.js';

const call = (id: string) => new AIMessage({ content: '', tool_calls: [{ id, name: 'ask_database', args: { question: 'q' }, type: 'tool_call' }] });
const result = (id: string, size = 10) => new ToolMessage({ tool_call_id: id, content: 'r'.repeat(size) });

/** A question, its ask_database call and result, and the answer: one turn of a thread. */
const turn = (i: number, resultChars = 2000) => [
  new HumanMessage(`question ${i}: how many orders were placed in month ${i}?`),
  call(`c${i}`),
  new ToolMessage({ tool_call_id: `c${i}`, content: `Ran:\nSELECT count(*) FROM orders WHERE month = ${i}\n${'order row, '.repeat(resultChars / 11)}` }),
  new AIMessage(`There were ${i * 17} orders in month ${i}.`),
];

describe('selectContext', () => {
  it('keeps everything that fits', async () => {
    const messages = [new HumanMessage('hi'), call('a'), result('a'), new AIMessage('done')];
    expect(await selectContext(messages, 10_000)).toEqual(messages);
  });

  it('drops the oldest turns first, starts at a user message and never keeps an orphaned tool result', async () => {
    const messages = [new HumanMessage('old question'), call('a'), result('a', 4000), new AIMessage('old answer'), new HumanMessage('new question'), call('b'), result('b'), new AIMessage('new answer')];
    const window = await selectContext(messages, 200);
    expect(window[0]).toEqual(messages[4]);
    expect(window).toHaveLength(4);
    const toolIds = window.filter((m) => ToolMessage.isInstance(m)).map((m) => (m as ToolMessage).tool_call_id);
    expect(toolIds).toEqual(['b']);
  });

  it('always includes the latest user message, even over budget', async () => {
    const messages = [new HumanMessage('x'.repeat(10_000))];
    expect(await selectContext(messages, 10)).toEqual(messages);
  });

  it('trims a long thread to fit its budget in real tokens, keeping the newest turns whole', async () => {
    const thread = Array.from({ length: 60 }, (_, i) => turn(i)).flat();
    const total = countTokens(thread);
    const budget = 4000;
    expect(total).toBeGreaterThan(budget * 5);
    const window = await selectContext([...thread, new HumanMessage('and in the last month?')], budget);
    expect(countTokens(window)).toBeLessThanOrEqual(budget);
    // The newest messages survive, in order, from a user message on, every kept tool result with its call.
    expect(window.at(-1)!.content).toBe('and in the last month?');
    expect(window.at(-2)!.content).toBe('There were 1003 orders in month 59.');
    expect(HumanMessage.isInstance(window[0])).toBe(true);
    const kept = window.length - 1;
    expect(kept % 4).toBe(0);
    expect(window.slice(0, -1)).toEqual(thread.slice(thread.length - kept));
    expect(kept / 4).toBeGreaterThanOrEqual(2);
    // One more turn would not have fitted.
    expect(countTokens(thread.slice(thread.length - kept - 4)) + countMessageTokens(window.at(-1)!)).toBeGreaterThan(budget);
  });

  it('answers tool calls left without results by a stopped run', () => {
    const messages = [new HumanMessage('q'), call('a')];
    const repaired = answerEveryToolCall(messages);
    expect(repaired).toHaveLength(3);
    expect((repaired[2] as ToolMessage).tool_call_id).toBe('a');
    expect(String(repaired[2].content)).toMatch(/stopped/);
    expect(answerEveryToolCall([new HumanMessage('q'), call('a'), result('a')])).toHaveLength(3);
  });
});

describe('token counting', () => {
  it('counts a hostile one-word message in pieces, close to its real count', () => {
    const tokens = countTextTokens('x'.repeat(100_000));
    expect(tokens).toBeGreaterThan(100_000 / 16);
    expect(tokens).toBeLessThan(100_000 / 4);
  });

  it('cuts ordinary text only before spaces, so its count is exact', () => {
    const text = 'The quick brown fox jumps over the lazy dog, and 1,234 more words follow. '.repeat(40);
    expect(countTextTokens(text)).toBe(new Tiktoken(o200kBase).encode(text).length);
  });

  it('counts BPE tokens, not characters', () => {
    expect(countTextTokens('')).toBe(0);
    expect(countTextTokens('hello world')).toBe(2);
    // A run of one letter packs many characters into a token; digits and punctuation far fewer.
    expect(countTextTokens('a'.repeat(4000))).toBeLessThan(1000);
    expect(countTextTokens('1,2,3,4,5,6,7,8,9,0,'.repeat(50))).toBeGreaterThan(1000 / 4);
  });

  it('counts tool calls as well as text', () => {
    expect(countMessageTokens(call('a'))).toBeGreaterThan(countMessageTokens(new AIMessage('')));
  });
});

describe('historyBudget', () => {
  it("fits the model's window after the system prompt and the answer's reserve, within the operator's cap", () => {
    expect(historyBudget({ contextWindow: 4096, systemTokens: 1000, cap: 12_000 })).toBe(4096 - 1000 - 1024);
    expect(historyBudget({ contextWindow: 128_000, systemTokens: 1000, cap: 12_000 })).toBe(12_000);
    expect(historyBudget({ contextWindow: 4096, systemTokens: 5000, cap: 12_000 })).toBe(0);
    expect(answerReserve(200_000)).toBe(4096);
  });
});

describe('the token memo (a thread read back from its checkpoint is not tokenised again)', () => {
  it('counts a text once, gives the same count again, and holds at most 4,000,000 characters', () => {
    const text = `${'the quarterly revenue by genre and country '.repeat(40)}${Math.random()}`;
    const before = tokenMemoSize().texts;
    const first = countTextTokens(text);
    expect(first).toBe(new Tiktoken(o200kBase).encode(text).length);
    expect(tokenMemoSize().texts).toBe(before + 1);
    expect(countTextTokens(text)).toBe(first);
    expect(tokenMemoSize().texts).toBe(before + 1);
    // Five texts of 900,000 characters: the oldest leave as the bound is passed.
    for (let i = 0; i < 5; i++) countTextTokens(`${i} ${'ab '.repeat(300_000)}`);
    expect(tokenMemoSize().chars).toBeLessThanOrEqual(4_000_000);
    expect(tokenMemoSize().chars).toBeGreaterThan(3_000_000);
  });
});
