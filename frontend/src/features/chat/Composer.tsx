import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

interface Props {
  streaming: boolean;
  disabled?: boolean;
  /** Typing stays possible, sending waits (e.g. until the lists a new thread needs have loaded). */
  sendBlocked?: boolean;
  placeholder: string;
  onSend(content: string): void;
  onStop(): void;
  autoFocus?: boolean;
}

/** Enter sends, Shift+Enter adds a line; while an answer streams, Stop replaces Send. */
export function Composer({ streaming, disabled, sendBlocked, placeholder, onSend, onStop, autoFocus }: Props) {
  const [text, setText] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
  }, [text]);

  useEffect(() => {
    if (!streaming && autoFocus) area.current?.focus();
  }, [streaming, autoFocus]);

  function submit() {
    const content = text.trim();
    if (!content || streaming || disabled || sendBlocked) return;
    onSend(content);
    setText('');
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // isComposing: Enter that confirms an IME composition (Japanese, Chinese…) must not send.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === 'Escape' && streaming) {
      onStop();
    }
  }

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor="message-input" className="sr-only">
        Message
      </label>
      <textarea
        id="message-input"
        ref={area}
        rows={1}
        value={text}
        placeholder={placeholder}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        disabled={disabled}
        data-testid="message-input"
      />
      {streaming ? (
        <button type="button" className="btn btn-stop" onClick={onStop} data-testid="stop-button">
          <span className="stop-square" aria-hidden /> Stop
        </button>
      ) : (
        <button type="submit" className="btn btn-primary" disabled={disabled || sendBlocked || !text.trim()} data-testid="send-button">
          Send
        </button>
      )}
      <p className="composer-hint muted">
        Enter to send · Shift+Enter for a new line · start with <code>SQL:</code> to run SQL directly
      </p>
    </form>
  );
}
