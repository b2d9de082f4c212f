import type { ModelInfo } from '@aigis/contracts';
import { useId } from 'react';
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
  const id = useId();
  const current = models.find((m) => m.name === value);
  const providers = [...new Set(models.map((m) => m.provider))];
  const currentScore = scoreLabel(current?.last_score);
  return (
    <div className="model-picker">
      <label htmlFor={id} className="picker-label">
        Model
      </label>
      <span className={`dot ${current ? (current.available ? 'dot-ok' : 'dot-off') : 'dot-none'}`} aria-hidden />
      <select
        id={id}
        value={value ?? ''}
        disabled={disabled}
        onChange={(e) => e.target.value && onChange(e.target.value)}
        data-testid="model-picker"
        title={current && !current.available ? current.reason : undefined}
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
      </select>
      {currentScore && (
        <span className="model-score" data-testid="model-score" title="Execution accuracy of this model's last run of the accuracy harness (npm run eval)">
          {currentScore}
        </span>
      )}
    </div>
  );
}
