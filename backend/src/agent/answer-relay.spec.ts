import { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { INNER_CALL_TAGS } from './events.js';
import { AnswerRelay } from './answer-relay.js';

const assistant = { langgraph_node: 'assistant' };
const ended = (content: string) => ({ generations: [[{ text: content, message: new AIMessage(content) }]] });

function relay() {
  const texts: string[] = [];
  return { texts, handler: new AnswerRelay((text) => texts.push(text)) };
}

describe('AnswerRelay', () => {
  it('makes chat models stream, and relays the assistant’s tokens as they come', () => {
    const { texts, handler } = relay();
    expect(handler.lc_prefer_streaming).toBe(true);
    handler.handleChatModelStart({}, [], 'run-1', undefined, undefined, [], assistant);
    handler.handleLLMNewToken('Hel', {}, 'run-1');
    handler.handleLLMNewToken('lo', {}, 'run-1');
    handler.handleLLMEnd(ended('Hello'), 'run-1');
    expect(texts).toEqual(['Hel', 'lo']);
  });

  it('relays an answer that came in one piece when its call ends', () => {
    const { texts, handler } = relay();
    handler.handleChatModelStart({}, [], 'run-2', undefined, undefined, [], assistant);
    handler.handleLLMEnd(ended('All at once.'), 'run-2');
    expect(texts).toEqual(['All at once.']);
  });

  it('skips model calls made inside tools and outside the assistant node', () => {
    const { texts, handler } = relay();
    handler.handleChatModelStart({}, [], 'inner', undefined, undefined, [...INNER_CALL_TAGS], assistant);
    handler.handleChatModelStart({}, [], 'tools', undefined, undefined, [], { langgraph_node: 'tools' });
    handler.handleChatModelStart({}, [], 'bare', undefined, undefined, [], undefined);
    for (const run of ['inner', 'tools', 'bare']) {
      handler.handleLLMNewToken('SELECT 1', {}, run);
      handler.handleLLMEnd(ended('SELECT 1'), run);
    }
    expect(texts).toEqual([]);
  });

  it('forgets a call that failed, so nothing of it is relayed later', () => {
    const { texts, handler } = relay();
    handler.handleChatModelStart({}, [], 'run-3', undefined, undefined, [], assistant);
    handler.handleLLMError(new Error('upstream down'), 'run-3');
    handler.handleLLMEnd(ended('late'), 'run-3');
    handler.handleLLMNewToken('late', {}, 'run-3');
    expect(texts).toEqual([]);
  });
});
