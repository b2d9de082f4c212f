import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { answerEveryToolCall, selectContext } from './context-window.js';

const call = (id: string) => new AIMessage({ content: '', tool_calls: [{ id, name: 'ask_database', args: { question: 'q' }, type: 'tool_call' }] });
const result = (id: string, size = 10) => new ToolMessage({ tool_call_id: id, content: 'r'.repeat(size) });

describe('selectContext', () => {
  it('keeps everything that fits', () => {
    const messages = [new HumanMessage('hi'), call('a'), result('a'), new AIMessage('done')];
    expect(selectContext(messages, 10_000)).toEqual(messages);
  });

  it('drops the oldest turns first, starts at a user message and never keeps an orphaned tool result', () => {
    const messages = [new HumanMessage('old question'), call('a'), result('a', 4000), new AIMessage('old answer'), new HumanMessage('new question'), call('b'), result('b'), new AIMessage('new answer')];
    const window = selectContext(messages, 200);
    expect(window[0]).toBe(messages[4]);
    expect(window).toHaveLength(4);
    const toolIds = window.filter((m) => ToolMessage.isInstance(m)).map((m) => (m as ToolMessage).tool_call_id);
    expect(toolIds).toEqual(['b']);
  });

  it('always includes the latest user message, even over budget', () => {
    const messages = [new HumanMessage('x'.repeat(10_000))];
    expect(selectContext(messages, 10)).toEqual(messages);
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
