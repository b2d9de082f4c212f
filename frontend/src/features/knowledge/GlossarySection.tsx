import { useState } from 'react';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { ErrorBox } from '../../ui/ErrorBox';
import { Pager } from '../../ui/Pager';
import { SqlBlock } from '../results/SqlBlock';
import { Field } from '../../ui/Field';
import { knowledgeApi } from './knowledge-api';
import { FormActions } from './FormActions';
import { ListFilter } from './ListFilter';
import { emptyGlossaryForm, glossaryFormFrom, LIMITS, toGlossaryInput, validateGlossary, type GlossaryFormValues } from './knowledge-model';
import type { GlossaryEntry, GlossaryEntryInput } from '@aigis/contracts';
import type { SectionProps } from './section-props';
import { useForm, useItemAction } from './use-form';
import { TextList } from './TextList';
import { useListView } from './use-list-view';

const glossaryText = (e: GlossaryEntry) => [e.term, e.definition, e.unit ?? '', e.sql ?? '', ...e.caveats].join('\n');

/** Business terms with what they mean here (and optionally how to compute them). */
export function GlossarySection({ connectionId, knowledge, update }: SectionProps) {
  const glossary = knowledge.glossary;
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const action = useItemAction();
  const paged = useListView(glossary, glossaryText);

  async function add(input: GlossaryEntryInput) {
    const entry = await knowledgeApi.addGlossary(connectionId, input);
    update((k) => ({ ...k, glossary: [entry, ...k.glossary] }));
    setAdding(false);
    paged.onPage(0);
  }

  async function save(id: string, input: GlossaryEntryInput) {
    const entry = await knowledgeApi.updateGlossary(connectionId, id, input);
    update((k) => ({ ...k, glossary: k.glossary.map((e) => (e.id === id ? entry : e)) }));
    setEditing(null);
  }

  const remove = (id: string) =>
    action.run(async () => {
      await knowledgeApi.removeGlossary(connectionId, id);
      update((k) => ({ ...k, glossary: k.glossary.filter((e) => e.id !== id) }));
    });

  return (
    <section className="knowledge-section" id="knowledge-glossary" aria-labelledby="knowledge-glossary-title">
      <div className="knowledge-row">
        <h2 id="knowledge-glossary-title">Glossary</h2>
        <span className="spacer" />
        {!adding && (
          <button type="button" className="btn btn-small" onClick={() => setAdding(true)} data-testid="glossary-add">
            Add a term
          </button>
        )}
      </div>
      <p className="muted">What “active customer”, “revenue” or “MRR” mean for this database, with the SQL that computes them if you like.</p>
      {action.error && <ErrorBox code={action.error.code} message={action.error.message} />}
      {adding && <GlossaryForm initial={emptyGlossaryForm()} submitLabel="Add term" onSubmit={add} onCancel={() => setAdding(false)} />}
      {glossary.length === 0 && !adding && <p className="muted small">No terms yet.</p>}
      <ListFilter list={paged} label="Filter terms" testId="glossary-filter" />
      <ul className="knowledge-list" data-testid="glossary-list">
        {paged.items.map((entry) => (
          <li key={entry.id} className="knowledge-item" data-testid="glossary-item">
            {editing === entry.id ? (
              <GlossaryForm initial={glossaryFormFrom(entry)} submitLabel="Save term" onSubmit={(input) => save(entry.id, input)} onCancel={() => setEditing(null)} />
            ) : (
              <>
                <div className="knowledge-item-head">
                  <strong className="knowledge-term" data-testid="glossary-item-term">
                    {entry.term}
                  </strong>
                  {entry.unit && <span className="badge">{entry.unit}</span>}
                  <span className="spacer" />
                  <button type="button" className="btn btn-ghost btn-small" onClick={() => setEditing(entry.id)} data-testid="glossary-edit">
                    Edit
                  </button>
                  <ConfirmButton label="Delete" confirmLabel={`Delete ${entry.term}`} onConfirm={() => remove(entry.id)} className="btn btn-ghost btn-small btn-danger-text" testId="glossary-delete" />
                </div>
                <p className="knowledge-text" data-testid="glossary-item-definition">
                  {entry.definition}
                </p>
                <TextList items={entry.caveats} label="Caveats" testId="glossary-item-caveats" />
                {entry.sql && <SqlBlock sql={entry.sql} />}
              </>
            )}
          </li>
        ))}
      </ul>
      <Pager {...paged} testId="glossary-pager" />
    </section>
  );
}

function GlossaryForm({ initial, submitLabel, onSubmit, onCancel }: { initial: GlossaryFormValues; submitLabel: string; onSubmit(input: GlossaryEntryInput): Promise<void>; onCancel(): void }) {
  const { values, set, errors, busy, error, submit } = useForm(initial, validateGlossary, (v) => onSubmit(toGlossaryInput(v)));
  return (
    <form className="knowledge-form" onSubmit={submit} noValidate data-testid="glossary-form">
      <div className="field-row">
        <Field label="Term" error={errors.term} grow>
          <input value={values.term} onChange={(e) => set('term', e.target.value)} maxLength={LIMITS.term} placeholder="MRR" data-testid="glossary-term" />
        </Field>
        <Field label="Unit (optional)" error={errors.unit}>
          <input value={values.unit} onChange={(e) => set('unit', e.target.value)} maxLength={LIMITS.unit} placeholder="USD" data-testid="glossary-unit" />
        </Field>
      </div>
      <Field label="Definition" error={errors.definition}>
        <textarea value={values.definition} onChange={(e) => set('definition', e.target.value)} rows={3} placeholder="Sum of active subscription amounts, excluding annual contracts." data-testid="glossary-definition" />
      </Field>
      <Field label="SQL (optional)" error={errors.sql}>
        <textarea className="mono" value={values.sql} onChange={(e) => set('sql', e.target.value)} rows={3} spellCheck={false} data-testid="glossary-sql" />
      </Field>
      <Field label="Caveats (optional, one a line)" error={errors.caveats}>
        <textarea value={values.caveats} onChange={(e) => set('caveats', e.target.value)} rows={2} data-testid="glossary-caveats" />
      </Field>
      <FormActions error={error} busy={busy} label={submitLabel} onCancel={onCancel} name="glossary" />
    </form>
  );
}
