import { useState } from 'react';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { ErrorBox } from '../../ui/ErrorBox';
import { Field } from '../../ui/Field';
import { formatDateTime, plural } from '../../ui/format';
import { Pager } from '../../ui/Pager';
import { SqlBlock } from '../results/SqlBlock';
import { knowledgeApi } from './knowledge-api';
import { FormActions } from './FormActions';
import { ListFilter } from './ListFilter';
import { LIMITS, validateExample, type ExampleFormValues } from './knowledge-model';
import type { ExampleQuery } from '@aigis/contracts';
import type { SectionProps } from './section-props';
import { useForm, useItemAction } from './use-form';
import { useListView } from './use-list-view';

const SOURCE_LABEL: Record<ExampleQuery['source'], string> = { manual: 'added by hand', answer: 'from an answer', import: 'imported' };

const exampleText = (e: ExampleQuery) => `${e.question}\n${e.sql}`;

/** Questions with the SQL that answers them; the most similar ones go into the SQL writer's prompt. */
export function ExamplesSection({ connectionId, knowledge, update }: SectionProps) {
  const examples = knowledge.examples;
  const [adding, setAdding] = useState(false);
  const action = useItemAction();
  const paged = useListView(examples, exampleText);

  const remove = (id: string) =>
    action.run(async () => {
      await knowledgeApi.removeExample(connectionId, id);
      update((k) => ({ ...k, examples: k.examples.filter((e) => e.id !== id) }));
    });

  return (
    <section className="knowledge-section" id="knowledge-examples" aria-labelledby="knowledge-examples-title">
      <div className="knowledge-row">
        <h2 id="knowledge-examples-title">Example queries</h2>
        <span className="spacer" />
        {!adding && (
          <button type="button" className="btn btn-small" onClick={() => setAdding(true)} data-testid="example-add">
            Add an example
          </button>
        )}
      </div>
      <p className="muted">
        Questions with the SQL your team trusts. Each is run before it is saved; for a new question the most similar examples are shown to the
        model. “Save as example” under an answer adds one from a conversation.
      </p>
      {action.error && <ErrorBox code={action.error.code} message={action.error.message} />}
      {adding && (
        <ExampleForm
          connectionId={connectionId}
          onSaved={(example) => {
            update((k) => ({ ...k, examples: [example, ...k.examples] }));
            setAdding(false);
            paged.onPage(0);
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      {examples.length === 0 && !adding && <p className="muted small">No examples yet.</p>}
      <ListFilter list={paged} label="Filter examples" testId="example-filter" />
      <ul className="knowledge-list" data-testid="example-list">
        {paged.items.map((example) => (
          <li key={example.id} className="knowledge-item" data-testid="example-item">
            <div className="knowledge-item-head">
              <strong className="knowledge-text" data-testid="example-item-question">
                {example.question}
              </strong>
              <span className="spacer" />
              <ConfirmButton label="Delete" confirmLabel="Delete example" onConfirm={() => remove(example.id)} className="btn btn-ghost btn-small btn-danger-text" testId="example-delete" />
            </div>
            <SqlBlock sql={example.sql} />
            <p className="muted small" data-testid="example-item-meta">
              {SOURCE_LABEL[example.source] ?? example.source} · {formatDateTime(example.created_at)} · ran in{' '}
              {Math.round(example.verification.elapsed_ms)} ms, {plural(example.verification.row_count, 'row')}
            </p>
          </li>
        ))}
      </ul>
      <Pager {...paged} testId="example-pager" />
    </section>
  );
}

function ExampleForm({ connectionId, onSaved, onCancel }: { connectionId: string; onSaved(example: ExampleQuery): void; onCancel(): void }) {
  // A refused or failing SQL (guard, database error, timeout) keeps the form, with the API's reason.
  const { values, set, errors, busy, error, submit } = useForm<ExampleFormValues>({ question: '', sql: '' }, validateExample, async (v) =>
    onSaved(await knowledgeApi.addExample(connectionId, { question: v.question.trim(), sql: v.sql.trim() })),
  );
  return (
    <form className="knowledge-form" onSubmit={submit} noValidate data-testid="example-form">
      <Field label="Question" error={errors.question}>
        <input value={values.question} onChange={(e) => set('question', e.target.value)} maxLength={LIMITS.text} placeholder="How many customers ordered last month?" data-testid="example-question" />
      </Field>
      <Field label="SQL" error={errors.sql} note="Run read-only against the database before it is saved.">
        <textarea className="mono" value={values.sql} onChange={(e) => set('sql', e.target.value)} rows={5} spellCheck={false} data-testid="example-sql" />
      </Field>
      <FormActions error={error} busy={busy} label="Check and save" busyLabel="Running the SQL…" onCancel={onCancel} name="example" />
    </form>
  );
}
