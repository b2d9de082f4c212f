import type { ThreadMessage } from '@aigis/contracts';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { ErrorBox } from '../../ui/ErrorBox';
import type { ChatState } from './chat-state';
import { MarkdownText } from './MarkdownText';
import { toDisplayItems } from './message-view';
import { ToolCallView, ToolResultView } from './ToolCallView';

/** Renders a thread, streamed or reloaded alike (both are `ThreadMessage[]`). */
export function MessageList({ state }: { state: ChatState }) {
  const items = useMemo(() => toDisplayItems(state.messages), [state.messages]);
  const streaming = state.turn?.status === 'streaming';
  const bottom = useRef<HTMLDivElement>(null);
  const last = state.messages[state.messages.length - 1];
  const waiting = streaming && (!last || last.role !== 'assistant' || (!last.content && !last.tool_calls?.length));

  // Follow the answer as it streams, unless the person scrolled up to read.
  useLayoutEffect(() => {
    const el = bottom.current;
    const scroller = el?.closest('.chat-scroll');
    if (!el || !scroller) return;
    const distance = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
    if (distance < 200 || !streaming) el.scrollIntoView({ block: 'end' });
  }, [state.messages, streaming]);

  return (
    <div className="messages" aria-busy={streaming}>
      {items.map((item) => {
        const notice = state.notices[item.message.id];
        return (
          <div key={item.message.id} className="message-group">
            {item.kind === 'user' && (
              <div className="message message-user" data-testid="user-message">
                <UserText message={item.message} />
              </div>
            )}
            {item.kind === 'assistant' && (
              <div className="message message-assistant">
                {item.message.content && (
                  <div className="markdown" data-testid="assistant-text">
                    <MarkdownText text={item.message.content} />
                  </div>
                )}
                {item.calls.map((call) => (
                  <ToolCallView
                    key={call.id}
                    call={call}
                    running={streaming}
                    awaitingReview={call.id === state.pendingReview?.tool_call_id}
                    question={item.question}
                  />
                ))}
              </div>
            )}
            {item.kind === 'tool' && (
              <div className="message message-assistant">
                <ToolResultView name={item.message.tool_name ?? 'tool'} result={item.result} callId={item.message.tool_call_id} question={item.question} />
              </div>
            )}
            {notice?.kind === 'stopped' && (
              <p className="turn-notice muted" data-testid="stopped-notice">
                Stopped. Ask again or rephrase to continue.
              </p>
            )}
            {notice?.kind === 'error' && (
              <div className="turn-notice">
                <ErrorBox code={notice.code} message={notice.message} />
              </div>
            )}
          </div>
        );
      })}
      {waiting && (
        <div className="thinking muted" role="status" data-testid="thinking">
          <span className="spinner" aria-hidden /> Thinking…
        </div>
      )}
      <div ref={bottom} />
    </div>
  );
}

function UserText({ message }: { message: ThreadMessage }) {
  // A direct SQL message shows as SQL, like the query it runs.
  const sql = /^\s*SQL:\s*/i.exec(message.content);
  if (sql) {
    return (
      <p className="user-sql">
        <span className="badge">SQL</span> <code>{message.content.slice(sql[0].length)}</code>
      </p>
    );
  }
  return <p className="user-text">{message.content}</p>;
}
