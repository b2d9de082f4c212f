import type { Connection } from '@aigis/contracts';
import { useId } from 'react';
import { DIALECT_LABEL } from '../../ui/format';

interface Props {
  connections: Connection[];
  value: string | null;
  disabled?: boolean;
  onChange(id: string): void;
}

/** The database a thread asks about. */
export function ConnectionSelect({ connections, value, disabled, onChange }: Props) {
  const id = useId();
  return (
    <div className="model-picker">
      <label htmlFor={id} className="picker-label">
        Database
      </label>
      <select
        id={id}
        value={value ?? ''}
        disabled={disabled}
        onChange={(e) => e.target.value && onChange(e.target.value)}
        data-testid="connection-select"
      >
        {!value && <option value="">Choose a database…</option>}
        {value && !connections.some((c) => c.id === value) && <option value={value}>Unknown connection</option>}
        {connections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({DIALECT_LABEL[c.dialect]})
          </option>
        ))}
      </select>
    </div>
  );
}
