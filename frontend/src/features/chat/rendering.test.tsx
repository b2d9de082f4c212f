// @vitest-environment jsdom
import type { StreamEvent, ThreadMessage } from '@aigis/contracts';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, type } from '../../testing/dom';
import { chatReducer, emptyChat, type ChatAction, type ChatState } from './chat-state';
import { Composer } from './Composer';
import { MessageList } from './MessageList';

// jsdom has no layout: scrolling is a no-op here.
Element.prototype.scrollIntoView = function () {};


const sqlResult = { type: 'sql_result' as const, sql: 'SELECT 2 AS n', columns: ['n'], rows: [{ n: 2 }], row_count: 1, truncated: true, elapsed_ms: 4 };
const ev = (event: StreamEvent): ChatAction => ({ type: 'event', event });

describe('message list', () => {
  it('renders a streamed turn exactly like the same thread reloaded from the API', async () => {
    const streamed = [
      { type: 'start', turnId: 't', content: 'SQL: SELECT 2 AS n' },
      ev({ type: 'tool_call', data: { id: 'c1', name: 'ask_database', args: { sql: 'SELECT 2 AS n' } } }),
      ev({ type: 'tool_result', data: { id: 'c1', name: 'ask_database', content: sqlResult } }),
      ev({ type: 'chunk', data: { content: 'Two.' } }),
      ev({ type: 'end', data: { full_response: 'Two.' } }),
    ].reduce<ChatState>((s, a) => chatReducer(s, a as ChatAction), emptyChat);
    const reloaded: ThreadMessage[] = [
      { id: 'a', role: 'user', content: 'SQL: SELECT 2 AS n' },
      { id: 'b', role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'ask_database', args: { sql: 'SELECT 2 AS n' } }] },
      { id: 'c', role: 'tool', content: JSON.stringify(sqlResult), tool_call_id: 'c1', tool_name: 'ask_database' },
      { id: 'd', role: 'assistant', content: 'Two.' },
    ];
    // Lazy parts (markdown, highlighting) are loaded first so both renders settle to the final DOM.
    await import('./Markdown');
    await import('../../lib/highlight-sql');
    const a = await render(<MessageList state={streamed} />);
    const b = await render(<MessageList state={chatReducer(emptyChat, { type: 'load', messages: reloaded })} />);
    for (const el of [a, b]) {
      await vi.waitFor(() => {
        expect(el.querySelector('.hljs-keyword')).not.toBeNull();
        expect(el.querySelector('.markdown-plain')).toBeNull();
      });
    }
    expect(a.querySelector('[data-testid="sql-block"]')?.textContent).toContain('SELECT 2 AS n');
    expect(a.querySelector('[data-testid="results-truncated"]')).not.toBeNull();
    expect(a.innerHTML).toBe(b.innerHTML);
  });

  it('shows live activity for a running tool and the stop notice after Stop', async () => {
    const running = [
      { type: 'start', turnId: 't', content: 'chart please' },
      ev({ type: 'tool_call', data: { id: 'c2', name: 'ask_analyst', args: {} } }),
    ].reduce<ChatState>((s, a) => chatReducer(s, a as ChatAction), emptyChat);
    const live = await render(<MessageList state={running} />);
    expect(live.querySelector('[data-testid="tool-activity"]')?.textContent).toContain('Drawing a chart…');

    const stopped = await render(<MessageList state={chatReducer(running, { type: 'abort' })} />);
    expect(stopped.querySelector('[data-testid="tool-activity"]')).toBeNull();
    expect(stopped.querySelector('[data-testid="tool-cancelled"]')).not.toBeNull();
    expect(stopped.querySelector('[data-testid="stopped-notice"]')).not.toBeNull();
  });

  it('shows a stream error in place with what to do next', async () => {
    const failed = [
      { type: 'start', turnId: 't', content: 'q' },
      ev({ type: 'chunk', data: { content: 'Partial' } }),
      ev({ type: 'error', data: { error: 'gone', code: 'MODEL_UNAVAILABLE' } }),
    ].reduce<ChatState>((s, a) => chatReducer(s, a as ChatAction), emptyChat);
    const el = await render(<MessageList state={failed} />);
    expect(el.querySelector('[data-testid="assistant-text"]')?.textContent).toBe('Partial');
    const box = el.querySelector('[data-testid="error-box"]');
    expect(box?.textContent).toContain('gone');
    expect(box?.textContent).toContain('Pick another model');
  });
});

describe('composer', () => {
  function key(el: Element, init: KeyboardEventInit) {
    el.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
  }

  it('sends on Enter, not on Shift+Enter, and clears the input', async () => {
    const onSend = vi.fn();
    const el = await render(<Composer streaming={false} placeholder="" onSend={onSend} onStop={() => {}} />);
    const input = el.querySelector<HTMLTextAreaElement>('[data-testid="message-input"]')!;
    await act(async () => type(input, '  how many orders?  '));
    await act(async () => key(input, { key: 'Enter', shiftKey: true }));
    expect(onSend).not.toHaveBeenCalled();
    await act(async () => key(input, { key: 'Enter' }));
    expect(onSend).toHaveBeenCalledWith('how many orders?');
    expect(input.value).toBe('');
  });

  it('keeps typing but holds sending while what a new thread needs is loading', async () => {
    const onSend = vi.fn();
    const el = await render(<Composer streaming={false} sendBlocked placeholder="" onSend={onSend} onStop={() => {}} />);
    const input = el.querySelector<HTMLTextAreaElement>('[data-testid="message-input"]')!;
    expect(input.disabled).toBe(false);
    await act(async () => type(input, 'how many orders?'));
    await act(async () => key(input, { key: 'Enter' }));
    expect(onSend).not.toHaveBeenCalled();
    expect(el.querySelector<HTMLButtonElement>('[data-testid="send-button"]')!.disabled).toBe(true);
    expect(input.value).toBe('how many orders?');
  });

  it('offers Stop instead of Send while streaming', async () => {
    const onStop = vi.fn();
    const el = await render(<Composer streaming placeholder="" onSend={() => {}} onStop={onStop} />);
    expect(el.querySelector('[data-testid="send-button"]')).toBeNull();
    await act(async () => el.querySelector<HTMLButtonElement>('[data-testid="stop-button"]')!.click());
    expect(onStop).toHaveBeenCalledOnce();
  });
});
