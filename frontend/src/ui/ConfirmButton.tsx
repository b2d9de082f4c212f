import { useEffect, useRef, useState, type ReactNode } from 'react';

interface Props {
  label: ReactNode;
  confirmLabel: string;
  onConfirm(): void | Promise<void>;
  className?: string;
  testId?: string;
  ariaLabel?: string;
}

/** A destructive action that asks once, inline (no modal), and cancels on Escape or blur. */
export function ConfirmButton({ label, confirmLabel, onConfirm, className = 'btn btn-ghost', testId, ariaLabel }: Props) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);

  if (!asking) {
    return (
      <button type="button" className={className} onClick={() => setAsking(true)} data-testid={testId} aria-label={ariaLabel}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" onKeyDown={(e) => e.key === 'Escape' && setAsking(false)}>
      <button
        ref={confirmRef}
        type="button"
        className="btn btn-danger btn-small"
        disabled={busy}
        data-testid={testId ? `${testId}-confirm` : undefined}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="btn btn-ghost btn-small" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
