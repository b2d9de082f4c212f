import type { ModelInfo } from '@aigis/contracts';
import { PickerSelect } from '../../ui/PickerSelect';
import './models.css';
import { scoreLabel } from './score-label';

interface Props {
  models: ModelInfo[];
  value: string | null;
  disabled?: boolean;
  onChange(name: string): void;
}

/**
 * Every registry model, grouped by provider; unavailable ones stay listed with their reason but
 * cannot be picked. A native select keeps it keyboard- and screen-reader-friendly.
 */
export function ModelPicker({ models, value, disabled, onChange }: Props) {
  const current = models.find((m) => m.name === value);
  const providers = [...new Set(models.map((m) => m.provider))];
  const currentScore = scoreLabel(current?.last_score);
  return (
    <PickerSelect
      label="Model"
      value={value}
      disabled={disabled}
      onChange={onChange}
      testId="model-picker"
      title={current && !current.available ? current.reason : undefined}
      before={<span className={`dot ${current ? (current.available ? 'dot-ok' : 'dot-off') : 'dot-none'}`} aria-hidden />}
      after={
        currentScore && (
          <span className="model-score" data-testid="model-score" title="Execution accuracy of this model's last run of the accuracy harness (npm run eval)">
            {currentScore}
          </span>
        )
      }
    >
      {!value && <option value="">No model</option>}
      {value && !current && <option value={value}>{value} (not in the registry)</option>}
      {providers.map((p) => (
        <optgroup key={p} label={p}>
          {models
            .filter((m) => m.provider === p)
            .map((m) => (
              <option key={m.name} value={m.name} disabled={!m.available && m.name !== value}>
                {m.name}
                {m.available ? '' : ` — unavailable${m.reason ? `: ${m.reason}` : ''}`}
                {scoreLabel(m.last_score) ? ` (${scoreLabel(m.last_score)})` : ''}
              </option>
            ))}
        </optgroup>
      ))}
    </PickerSelect>
  );
}
