import { useState } from 'react';
import { ApiError } from '../../lib/api-error';
import { ErrorBox } from '../../ui/ErrorBox';
import { formatDateTime } from '../../ui/format';
import { knowledgeApi } from './knowledge-api';
import { LIMITS } from './knowledge-model';
import type { SectionProps } from './section-props';

/** Free text always in the model's prompt for this connection ("amounts are in cents"). */
export function InstructionsSection({ connectionId, knowledge, update }: SectionProps) {
  const stored = knowledge.instructions;
  const [text, setText] = useState(stored.text);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);

  async function save() {
    setBusy(true);
    setError(null);
    try {
      const instructions = await knowledgeApi.saveInstructions(connectionId, text.trim());
      update((k) => ({ ...k, instructions }));
      setText(instructions.text);
      setSaved(true);
    } catch (err) {
      setError(ApiError.from(err));
    } finally {
      setBusy(false);
    }
  }

  const over = text.length > LIMITS.instructions;
  return (
    <section className="knowledge-section" id="knowledge-instructions" aria-labelledby="knowledge-instructions-title">
      <h2 id="knowledge-instructions-title">Instructions</h2>
      <p className="muted">Always in the prompt, e.g. “amounts are in cents”, “the fiscal year starts in April”.</p>
      <textarea
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setSaved(false);
        }}
        rows={6}
        aria-label="Instructions"
        aria-invalid={over}
        placeholder="Amounts are in cents. Orders with status 'test' are not real."
        data-testid="knowledge-instructions"
      />
      <div className="knowledge-row">
        <small className={over ? 'field-error' : 'muted'}>
          {text.length.toLocaleString()} / {LIMITS.instructions.toLocaleString()} characters
        </small>
        <span className="spacer" />
        {saved ? (
          <small className="saved-note" role="status" data-testid="knowledge-instructions-saved">
            Saved.
          </small>
        ) : (
          stored.updated_at && <small className="muted">Last saved {formatDateTime(stored.updated_at)}</small>
        )}
        <button
          type="button"
          className="btn btn-primary btn-small"
          disabled={busy || over || text.trim() === stored.text}
          onClick={() => void save()}
          data-testid="knowledge-instructions-save"
        >
          {busy ? 'Saving…' : 'Save instructions'}
        </button>
      </div>
      {error && <ErrorBox code={error.code} message={error.message} details={error.details} />}
    </section>
  );
}
