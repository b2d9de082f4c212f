import { useId, type ReactNode } from 'react';

interface Props {
  label: string;
  value: string | null;
  disabled?: boolean;
  /** Called with the chosen value; choosing the empty placeholder changes nothing. */
  onChange(value: string): void;
  testId: string;
  title?: string;
  /** Shown between the label and the select (a status dot). */
  before?: ReactNode;
  /** Shown after the select (a score). */
  after?: ReactNode;
  /** The options. */
  children: ReactNode;
}

/** A labelled native select of the thread's bar (its model, its database): keyboard- and screen-reader-friendly. */
export function PickerSelect({ label, value, disabled, onChange, testId, title, before, after, children }: Props) {
  const id = useId();
  return (
    <div className="model-picker">
      <label htmlFor={id} className="picker-label">
        {label}
      </label>
      {before}
      <select id={id} value={value ?? ''} disabled={disabled} onChange={(e) => e.target.value && onChange(e.target.value)} data-testid={testId} title={title}>
        {children}
      </select>
      {after}
    </div>
  );
}
