import type { ReactNode } from 'react';

/** A labelled input with its error (or a note) under it. */
export function Field(props: { label: string; error?: string; note?: string; grow?: boolean; children: ReactNode }) {
  return (
    <label className={`field${props.grow ? ' grow' : ''}`}>
      <span>{props.label}</span>
      {props.children}
      {props.error ? <small className="field-error">{props.error}</small> : props.note ? <small className="muted">{props.note}</small> : null}
    </label>
  );
}
