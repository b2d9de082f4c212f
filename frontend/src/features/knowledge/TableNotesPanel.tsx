import type { SchemaTable, TableNote } from '@aigis/contracts';
import { useState } from 'react';
import { Field } from '../../ui/Field';
import { FormActions } from './FormActions';
import { knowledgeApi } from './knowledge-api';
import { hasNotes, LIMITS, tableNoteFormFrom, toTableNoteInput, validateTableNote, type TableNoteFormValues } from './knowledge-model';
import { TextList } from './TextList';
import { useForm } from './use-form';
import './knowledge.css';

/** A table's description and data-quality notes in the schema browser, and the form that edits them with a note per column. */
export function TableNotesPanel({ connectionId, table, note, onSaved }: {
  connectionId: string;
  table: SchemaTable;
  note: TableNote | undefined;
  onSaved(note: TableNote): void;
}) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <TableNotesForm
        connectionId={connectionId}
        table={table}
        initial={tableNoteFormFrom(note, table.columns.map((c) => c.name))}
        onSaved={(saved) => {
          onSaved(saved);
          setEditing(false);
        }}
        onCancel={() => setEditing(false)}
      />
    );
  }
  return (
    <div className="table-notes" data-testid="table-notes">
      {note?.description && (
        <p className="knowledge-text" data-testid="table-notes-description">
          {note.description}
        </p>
      )}
      <TextList items={note?.data_quality ?? []} label="Data-quality notes" testId="table-notes-quality" />
      <button type="button" className="btn btn-ghost btn-small" onClick={() => setEditing(true)} data-testid="table-notes-edit">
        {hasNotes(note) ? 'Edit notes' : 'Add notes'}
      </button>
    </div>
  );
}

function TableNotesForm({ connectionId, table, initial, onSaved, onCancel }: {
  connectionId: string;
  table: SchemaTable;
  initial: TableNoteFormValues;
  onSaved(note: TableNote): void;
  onCancel(): void;
}) {
  const { values, setValues, errors, busy, error, submit } = useForm(initial, validateTableNote, async (v) =>
    onSaved(await knowledgeApi.saveTableNote(connectionId, toTableNoteInput(table, v))),
  );
  return (
    <form className="knowledge-form table-notes" onSubmit={submit} noValidate data-testid="table-notes-form">
      <Field label="What this table holds" error={errors.description}>
        <textarea
          value={values.description}
          onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
          rows={2}
          maxLength={LIMITS.text}
          data-testid="table-notes-description-input"
        />
      </Field>
      <Field label="Data-quality notes (optional, one a line)" error={errors.dataQuality}>
        <textarea
          value={values.dataQuality}
          onChange={(e) => setValues((v) => ({ ...v, dataQuality: e.target.value }))}
          rows={2}
          placeholder="Duplicate rows exist for Q1 2024 after the migration."
          data-testid="table-notes-quality-input"
        />
      </Field>
      <fieldset className="field">
        <legend>Column notes</legend>
        <div className="column-notes">
          {Object.keys(values.columns).map((column) => (
            <label key={column} className="column-note">
              <span className="mono">{column}</span>
              <input
                value={values.columns[column]}
                onChange={(e) => setValues((v) => ({ ...v, columns: { ...v.columns, [column]: e.target.value } }))}
                maxLength={LIMITS.text}
                data-testid="table-notes-column"
                data-column={column}
              />
            </label>
          ))}
        </div>
      </fieldset>
      {errors.columns && <p className="field-error">{errors.columns}</p>}
      <FormActions error={error} busy={busy} label="Save notes" onCancel={onCancel} name="table-notes" />
    </form>
  );
}
