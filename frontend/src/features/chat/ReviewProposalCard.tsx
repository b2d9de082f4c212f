import type { ConfirmRequest, ReviewProposal } from '@aigis/contracts';
import { describeEstimate } from '@aigis/contracts';
import { useEffect, useState } from 'react';
import { ApiError } from '../../lib/api-error';
import { SqlBlock } from '../results/SqlBlock';
import { ErrorBox } from '../../ui/ErrorBox';

/**
 * A query waiting for the person's decision (review before run): the SQL, the database's estimate in words, and
 * Run / Edit / Don't run. An edit is sent as the SQL to run and goes through the server's guard again.
 */
export function ReviewProposalCard({ proposal, disabled, onDecide }: { proposal: ReviewProposal; disabled: boolean; onDecide(request: ConfirmRequest): Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [sql, setSql] = useState(proposal.sql);
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    setEditing(false);
    setSql(proposal.sql);
    setRefusing(false);
    setReason('');
    setError(null);
  }, [proposal.id, proposal.sql]);

  async function decide(request: ConfirmRequest) {
    setBusy(true);
    setError(null);
    try {
      await onDecide({ ...request, proposal_id: proposal.id });
    } catch (err) {
      setError(ApiError.from(err));
    } finally {
      setBusy(false);
    }
  }

  const edited = sql.trim() !== proposal.sql.trim();
  const off = disabled || busy;
  return (
    <section className="review-card" data-testid="review-proposal" aria-label="Query waiting for your review">
      <header className="review-head">
        <strong>{proposal.direct ? 'Run this SQL?' : 'Run this query?'}</strong>
        <span className="muted small" data-testid="review-reason">
          {sentence(proposal.reason)}
        </span>
      </header>
      <p className="review-estimate" data-testid="review-estimate">
        {proposal.estimate ? `Estimate: ${describeEstimate(proposal.estimate)}.` : 'No estimate from the database.'}
      </p>
      {editing ? (
        <label className="field">
          <span className="small muted">SQL to run (checked again before it runs)</span>
          <textarea className="review-sql" value={sql} rows={Math.min(14, sql.split('\n').length + 2)} onChange={(e) => setSql(e.target.value)} spellCheck={false} data-testid="review-sql-input" />
        </label>
      ) : (
        <SqlBlock sql={sql} label={edited ? 'SQL (edited)' : 'SQL'} />
      )}
      {refusing && (
        <label className="field">
          <span className="small muted">Why not? (optional, the assistant reads it)</span>
          <input value={reason} maxLength={2000} onChange={(e) => setReason(e.target.value)} data-testid="review-reason-input" />
        </label>
      )}
      {error && <ErrorBox code={error.code} message={error.message} />}
      <div className="review-actions">
        <button type="button" className="btn btn-primary" disabled={off || !sql.trim()} onClick={() => void decide({ decision: 'approve', ...(edited ? { sql } : {}) })} data-testid="review-run">
          {busy ? 'Working…' : edited ? 'Run edited SQL' : 'Run'}
        </button>
        <button type="button" className="btn" disabled={off} onClick={() => setEditing((e) => !e)} data-testid="review-edit">
          {editing ? 'Done editing' : 'Edit'}
        </button>
        {refusing ? (
          <button type="button" className="btn" disabled={off} onClick={() => void decide({ decision: 'deny', ...(reason.trim() ? { reason: reason.trim() } : {}) })} data-testid="review-deny-confirm">
            Don't run it
          </button>
        ) : (
          <button type="button" className="btn btn-ghost" disabled={off} onClick={() => setRefusing(true)} data-testid="review-deny">
            Don't run
          </button>
        )}
      </div>
    </section>
  );
}

function sentence(text: string): string {
  return text ? `Asked because ${text.replace(/^expensive: /, 'it looks expensive: ')}.` : '';
}
