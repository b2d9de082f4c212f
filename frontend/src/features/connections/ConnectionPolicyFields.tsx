import { useCallback, useState } from 'react';
import { Field } from '../../ui/Field';
import {
  describePolicy,
  emptyPolicyForm,
  policyFormFrom,
  toPolicyInput,
  validatePolicy,
  type ConnectionPolicy,
  type PolicyErrors,
  type PolicyFormValues,
} from './connection-policy-model';

/** The policy part of the connection form: its values, errors, and what it adds to the saved connection. */
export function usePolicyForm() {
  const [values, setValues] = useState<PolicyFormValues>(emptyPolicyForm());
  const [errors, setErrors] = useState<PolicyErrors>({});
  /** Fills the fields from a loaded or saved connection (stable: effects may depend on it). */
  const load = useCallback((c: ConnectionPolicy) => {
    setValues(policyFormFrom(c));
    setErrors({});
  }, []);
  return {
    values,
    errors,
    set(key: keyof PolicyFormValues, value: string) {
      setValues((v) => ({ ...v, [key]: value }));
      setErrors((e) => ({ ...e, [key]: undefined }));
    },
    load,
    /** Checks the fields; false (with the errors shown) when they cannot be sent. */
    validate(): boolean {
      const found = validatePolicy(values);
      setErrors(found);
      return Object.keys(found).length === 0;
    },
    input: () => toPolicyInput(values),
  };
}

/**
 * Table policy and this connection's own limits, inside the connection form: which tables queries (and the
 * model) may see, and the row cap and statement timeout within the instance's maxima.
 */
export function ConnectionPolicyFields({ policy, onChange }: { policy: ReturnType<typeof usePolicyForm>; onChange?(): void }) {
  const { values, errors } = policy;
  const set = (key: keyof PolicyFormValues, value: string) => {
    policy.set(key, value);
    onChange?.();
  };
  const summary = describePolicy(toPolicyInput(values));
  return (
    <details className="field" open={Object.keys(errors).length > 0 || undefined} data-testid="conn-policy">
      <summary>Tables and limits{summary ? ` (${summary})` : ''}</summary>
      <p className="muted small">
        One entry a line: <code>name</code>, <code>schema.name</code> or <code>schema.*</code>. With allowed tables, queries may read only those; excluded
        tables are never read, shown in the schema or given to a model.
      </p>
      <div className="field-row">
        <Field label="Allowed tables (empty: all)" error={errors.allowedTables} grow>
          <textarea value={values.allowedTables} onChange={(e) => set('allowedTables', e.target.value)} rows={3} spellCheck={false} data-testid="conn-allowed-tables" />
        </Field>
        <Field label="Excluded tables" error={errors.excludedTables} grow>
          <textarea
            value={values.excludedTables}
            onChange={(e) => set('excludedTables', e.target.value)}
            rows={3}
            spellCheck={false}
            placeholder={'hr.salaries\naudit.*'}
            data-testid="conn-excluded-tables"
          />
        </Field>
      </div>
      <div className="field-row">
        <Field label="Row limit per query" error={errors.rowLimit} note="Empty: the server's default." grow>
          <input value={values.rowLimit} onChange={(e) => set('rowLimit', e.target.value)} inputMode="numeric" data-testid="conn-row-limit" />
        </Field>
        <Field label="Statement timeout (seconds)" error={errors.timeoutSeconds} note="Empty: the server's default." grow>
          <input value={values.timeoutSeconds} onChange={(e) => set('timeoutSeconds', e.target.value)} inputMode="decimal" data-testid="conn-statement-timeout" />
        </Field>
      </div>
    </details>
  );
}
