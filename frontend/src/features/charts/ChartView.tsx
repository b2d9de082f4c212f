import { lazy, Suspense, useMemo, useState } from 'react';
import './charts.css';

// Lazy: vega + vega-lite + vega-embed are most of the app's weight and only needed once a chart shows.
const VegaChart = lazy(() => import('./VegaChart'));

interface Props {
  spec: Record<string, unknown>;
  /** The server fell back to a chart chosen from the column types. */
  fallback?: boolean;
}

export function ChartView({ spec, fallback }: Props) {
  const [showSpec, setShowSpec] = useState(false);
  const specText = useMemo(() => JSON.stringify(summariseData(spec), null, 2), [spec]);
  const title = typeof spec.title === 'string' ? spec.title : typeof (spec.title as { text?: unknown })?.text === 'string' ? String((spec.title as { text: string }).text) : null;

  return (
    <figure className="chart" data-testid="chart">
      <figcaption>
        <span>{title ?? 'Chart'}</span>
        {fallback && (
          <span className="badge" title="The model's chart did not compile, so a chart was chosen from the column types.">
            automatic chart
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="btn btn-ghost btn-small" aria-expanded={showSpec} onClick={() => setShowSpec((s) => !s)} data-testid="chart-view-spec">
          {showSpec ? 'Hide spec' : 'View spec'}
        </button>
      </figcaption>
      <div className="chart-body" data-testid="chart-container">
        <Suspense fallback={<div className="chart-loading muted">Loading chart…</div>}>
          <VegaChart spec={spec} />
        </Suspense>
      </div>
      {showSpec && (
        <pre className="chart-spec" data-testid="chart-spec" tabIndex={0}>
          {specText}
        </pre>
      )}
    </figure>
  );
}

/** The spec as shown to a person: inline data values shortened to a few rows. */
function summariseData(spec: Record<string, unknown>): Record<string, unknown> {
  const data = spec.data as { values?: unknown[] } | undefined;
  if (!data || !Array.isArray(data.values) || data.values.length <= 5) return spec;
  return { ...spec, data: { ...data, values: [...data.values.slice(0, 5), `… ${data.values.length - 5} more rows`] } };
}
