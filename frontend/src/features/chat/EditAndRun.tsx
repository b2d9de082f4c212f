import { useState } from 'react';

/**
 * "Edit and run" under the SQL of an earlier answer: the SQL opens in an editor and runs as a `SQL:` message,
 * through the same path (guard, review before run) as one typed by hand.
 */
export function EditAndRun({ sql, disabled, onRun }: { sql: string; disabled: boolean; onRun(sql: string): void }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(sql);
  if (!open) {
    return (
      <button type="button" className="btn btn-ghost btn-small edit-and-run" disabled={disabled} onClick={() => { setText(sql); setOpen(true); }} data-testid="edit-and-run">
        Edit and run
      </button>
    );
  }
  return (
    <div className="edit-and-run-box">
      <textarea className="review-sql" value={text} rows={Math.min(14, text.split('\n').length + 2)} onChange={(e) => setText(e.target.value)} spellCheck={false} data-testid="edit-and-run-input" />
      <div className="review-actions">
        <button type="button" className="btn btn-primary btn-small" disabled={disabled || !text.trim()} onClick={() => { setOpen(false); onRun(text.trim()); }} data-testid="edit-and-run-submit">
          Run
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
