import { useMemo, useState } from 'react';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { ErrorBox } from '../../ui/ErrorBox';
import { Field } from '../../ui/Field';
import { formatDateTime } from '../../ui/format';
import { Pager } from '../../ui/Pager';
import { SqlBlock } from '../results/SqlBlock';
import { knowledgeApi } from './knowledge-api';
import { FormActions } from './FormActions';
import { ListFilter } from './ListFilter';
import { confidenceLabel, learningFormFrom, sortLearnings, toLearningPatch, validateLearning, type LearningFormValues } from './knowledge-model';
import { LEARNING_CATEGORIES, type Learning, type LearningCategory, type LearningPatch } from '@aigis/contracts';
import type { SectionProps } from './section-props';
import { useForm, useItemAction } from './use-form';
import { useListView } from './use-list-view';

const learningText = (l: Learning) => [l.category, l.lesson, ...l.tables, l.failed_sql ?? '', l.working_sql].join('\n');

/** What the model learned when a query failed and a corrected one worked; the owner reviews it here. */
export function CorrectionsSection({ connectionId, knowledge, update }: SectionProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const action = useItemAction();
  const sorted = useMemo(() => sortLearnings(knowledge.learnings), [knowledge.learnings]);
  const paged = useListView(sorted, learningText);

  async function save(id: string, patch: LearningPatch) {
    const learning = await knowledgeApi.updateLearning(connectionId, id, patch);
    update((k) => ({ ...k, learnings: k.learnings.map((l) => (l.id === id ? learning : l)) }));
    setEditing(null);
  }

  const remove = (id: string) =>
    action.run(async () => {
      await knowledgeApi.removeLearning(connectionId, id);
      update((k) => ({ ...k, learnings: k.learnings.filter((l) => l.id !== id) }));
    });

  return (
    <section className="knowledge-section" id="knowledge-corrections" aria-labelledby="knowledge-corrections-title">
      <h2 id="knowledge-corrections-title">Learned corrections</h2>
      <p className="muted">
        Recorded by the model when a query failed and a corrected one worked; learning the same thing again raises its confidence instead of adding
        a copy. The most confident ones go into the prompt. Edit or delete any that are wrong.
      </p>
      {action.error && <ErrorBox code={action.error.code} message={action.error.message} />}
      {sorted.length === 0 && <p className="muted small">Nothing learned yet.</p>}
      <ListFilter list={paged} label="Filter corrections" testId="correction-filter" />
      <ul className="knowledge-list" data-testid="correction-list">
        {paged.items.map((l) => (
          <li key={l.id} className="knowledge-item" data-testid="correction-item">
            {editing === l.id ? (
              <LearningForm initial={learningFormFrom(l)} onSubmit={(patch) => save(l.id, patch)} onCancel={() => setEditing(null)} />
            ) : (
              <>
                <div className="knowledge-item-head">
                  <span className="badge">{l.category.replace(/_/g, ' ')}</span>
                  <span className="muted small" data-testid="correction-confidence" title="Confidence: how many times this was learned">
                    {confidenceLabel(l.confidence)}
                  </span>
                  <span className="spacer" />
                  <button type="button" className="btn btn-ghost btn-small" onClick={() => setEditing(l.id)} data-testid="correction-edit">
                    Edit
                  </button>
                  <ConfirmButton label="Delete" confirmLabel="Delete correction" onConfirm={() => remove(l.id)} className="btn btn-ghost btn-small btn-danger-text" testId="correction-delete" />
                </div>
                <p className="knowledge-text" data-testid="correction-lesson">
                  {l.lesson}
                </p>
                {l.tables.length > 0 && (
                  <p className="muted small">
                    Tables:{' '}
                    {l.tables.map((t, i) => (
                      <span key={t}>
                        {i > 0 && ', '}
                        <code>{t}</code>
                      </span>
                    ))}
                  </p>
                )}
                {l.failed_sql && <SqlBlock sql={l.failed_sql} label="SQL that failed" />}
                <SqlBlock sql={l.working_sql} label="SQL that worked" />
                <p className="muted small">Last learned {formatDateTime(l.updated_at)}</p>
              </>
            )}
          </li>
        ))}
      </ul>
      <Pager {...paged} testId="correction-pager" />
    </section>
  );
}

function LearningForm({ initial, onSubmit, onCancel }: { initial: LearningFormValues; onSubmit(patch: LearningPatch): Promise<void>; onCancel(): void }) {
  const { values, set, errors, busy, error, submit } = useForm(initial, validateLearning, (v) => onSubmit(toLearningPatch(v)));
  return (
    <form className="knowledge-form" onSubmit={submit} noValidate data-testid="correction-form">
      <div className="field-row">
        <Field label="Category" error={errors.category}>
          <select value={values.category} onChange={(e) => set('category', e.target.value as LearningCategory)} data-testid="correction-category">
            {LEARNING_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Tables (comma-separated)" error={errors.tables} grow>
          <input value={values.tables} onChange={(e) => set('tables', e.target.value)} spellCheck={false} data-testid="correction-tables" />
        </Field>
      </div>
      <Field label="What was learned" error={errors.lesson}>
        <textarea value={values.lesson} onChange={(e) => set('lesson', e.target.value)} rows={3} data-testid="correction-lesson-input" />
      </Field>
      <Field label="SQL that failed (optional)" error={errors.failedSql}>
        <textarea className="mono" value={values.failedSql} onChange={(e) => set('failedSql', e.target.value)} rows={3} spellCheck={false} />
      </Field>
      <Field label="SQL that worked" error={errors.workingSql}>
        <textarea className="mono" value={values.workingSql} onChange={(e) => set('workingSql', e.target.value)} rows={3} spellCheck={false} />
      </Field>
      <FormActions error={error} busy={busy} label="Save correction" onCancel={onCancel} name="correction" />
    </form>
  );
}
