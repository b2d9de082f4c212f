// @vitest-environment jsdom
import type { ConfirmRequest, ReviewProposal } from '@aigis/contracts';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { byTestId, render, type } from '../../testing/dom';
import { ReviewProposalCard } from './ReviewProposalCard';

const proposal: ReviewProposal = {
  id: 'p1',
  tool_call_id: 'c1',
  sql: 'SELECT * FROM orders',
  dialect: 'postgres',
  estimate: { cost: 52_000, rows: 1_200_000, scans: [{ table: 'orders', rows: 1_234_567 }] },
  reason: 'expensive: it reads all ~1.2 M rows of orders (limit 1 M)',
  mode: 'expensive',
  direct: false,
};

describe('review proposal card', () => {
  it('says what will run and why, in plain words', async () => {
    const root = await render(<ReviewProposalCard proposal={proposal} disabled={false} onDecide={async () => undefined} />);
    expect(byTestId(root, 'review-estimate').textContent).toBe('Estimate: scans ~1.2 M rows of orders; ~1.2 M rows processed; cost 52 k.');
    expect(byTestId(root, 'review-reason').textContent).toBe('Asked because it looks expensive: it reads all ~1.2 M rows of orders (limit 1 M).');
    expect(byTestId(root, 'sql-block').textContent).toContain('SELECT * FROM orders');
  });

  it('runs the proposal as is, or the edit, naming the proposal', async () => {
    const decide = vi.fn(async (_: ConfirmRequest) => undefined);
    const root = await render(<ReviewProposalCard proposal={proposal} disabled={false} onDecide={decide} />);
    await act(async () => byTestId(root, 'review-run').click());
    expect(decide).toHaveBeenLastCalledWith({ decision: 'approve', proposal_id: 'p1' });
    await act(async () => byTestId(root, 'review-edit').click());
    await act(async () => type(byTestId(root, 'review-sql-input') as HTMLTextAreaElement, 'SELECT * FROM orders LIMIT 10'));
    expect(byTestId(root, 'review-run').textContent).toBe('Run edited SQL');
    await act(async () => byTestId(root, 'review-run').click());
    expect(decide).toHaveBeenLastCalledWith({ decision: 'approve', sql: 'SELECT * FROM orders LIMIT 10', proposal_id: 'p1' });
  });

  it('refuses with a reason, and shows a refused edit without losing the proposal', async () => {
    const decide = vi.fn(async (request: ConfirmRequest) => {
      if (request.decision === 'approve') throw new ApiError('SQL_REJECTED', 'SQL rejected: statement 1 of 1 is DELETE', 400);
    });
    const root = await render(<ReviewProposalCard proposal={proposal} disabled={false} onDecide={decide} />);
    await act(async () => byTestId(root, 'review-edit').click());
    await act(async () => type(byTestId(root, 'review-sql-input') as HTMLTextAreaElement, 'DELETE FROM orders'));
    await act(async () => byTestId(root, 'review-run').click());
    expect(root.textContent).toContain('statement 1 of 1 is DELETE');
    await act(async () => byTestId(root, 'review-deny').click());
    await act(async () => type(byTestId(root, 'review-reason-input') as HTMLInputElement, 'too slow now'));
    await act(async () => byTestId(root, 'review-deny-confirm').click());
    expect(decide).toHaveBeenLastCalledWith({ decision: 'deny', reason: 'too slow now', proposal_id: 'p1' });
  });
});
