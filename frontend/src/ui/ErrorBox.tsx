import { errorHint } from '../lib/error-hints';
import './ui.css';

interface Props {
  code?: string;
  message: string;
  /** The error's details (a RATE_LIMITED answer carries retry_after_s). */
  details?: unknown;
  /** Overrides the hint looked up from the code. */
  hint?: string;
  onRetry?: () => void;
}

/** An error where it happened: what went wrong, and what to do next. */
export function ErrorBox({ code, message, details, hint, onRetry }: Props) {
  const next = hint ?? (code ? errorHint(code, details) : undefined);
  return (
    <div className="error-box" role="alert" data-testid="error-box" data-code={code}>
      <div className="error-title">
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden>
          <path d="M8 1.5l6.5 12H1.5z" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
          <path d="M8 6v3.5M8 11.5v.5" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
        </svg>
        <span>{message}</span>
        {code && <code className="error-code">{code}</code>}
      </div>
      {next && <p className="error-hint">{next}</p>}
      {onRetry && (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
