import type { ApiError } from '../../lib/api-error';
import { ErrorBox } from '../../ui/ErrorBox';

/** The end of a knowledge form: the API's error (if the last save failed), then Save and Cancel. */
export function FormActions({ error, busy, label, busyLabel = 'Saving…', onCancel, name }: {
  error: ApiError | null;
  busy: boolean;
  label: string;
  busyLabel?: string;
  onCancel(): void;
  /** Test ids: `<name>-save`, `<name>-error`. */
  name: string;
}) {
  return (
    <>
      {error && (
        <div data-testid={`${name}-error`}>
          <ErrorBox code={error.code} message={error.message} details={error.details} />
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={busy} data-testid={`${name}-save`}>
          {busy ? busyLabel : label}
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
