import type { ReviewMode } from '@aigis/contracts';

const LABELS: Record<ReviewMode, string> = { never: 'Never', expensive: 'When expensive', always: 'Always' };

/**
 * When queries are shown before they run. `inherit` adds "Like the connection" (a thread's null); the
 * connection form has no such choice.
 */
export function ReviewModeSelect(props: {
  value: ReviewMode | null;
  inherit?: string;
  disabled?: boolean;
  onChange(value: ReviewMode | null): void;
  testId: string;
}) {
  return (
    <label className="review-mode" title="Review before run: when a query is shown to you before it touches the database">
      <span className="small muted">Review queries</span>
      <select
        value={props.value ?? ''}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value === '' ? null : (e.target.value as ReviewMode))}
        data-testid={props.testId}
      >
        {props.inherit !== undefined && <option value="">{props.inherit}</option>}
        {(Object.keys(LABELS) as ReviewMode[]).map((mode) => (
          <option key={mode} value={mode}>
            {LABELS[mode]}
          </option>
        ))}
      </select>
    </label>
  );
}
