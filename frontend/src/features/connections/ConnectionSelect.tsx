import type { Connection } from '@aigis/contracts';
import { DIALECT_LABEL } from '../../ui/format';
import { PickerSelect } from '../../ui/PickerSelect';

interface Props {
  connections: Connection[];
  value: string | null;
  disabled?: boolean;
  onChange(id: string): void;
}

/** The database a thread asks about. */
export function ConnectionSelect({ connections, value, disabled, onChange }: Props) {
  return (
    <PickerSelect label="Database" value={value} disabled={disabled} onChange={onChange} testId="connection-select">
      {!value && <option value="">Choose a database…</option>}
      {value && !connections.some((c) => c.id === value) && <option value={value}>Unknown connection</option>}
      {connections.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name} ({DIALECT_LABEL[c.dialect]})
        </option>
      ))}
    </PickerSelect>
  );
}
