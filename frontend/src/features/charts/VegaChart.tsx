import { useMemo, useState } from 'react';
import { VegaEmbed } from 'react-vega';
import type { EmbedOptions, VisualizationSpec } from 'vega-embed';
import { ErrorBox } from '../../ui/ErrorBox';
import { embeddableSpec, embedOptions } from './chart-embed';
import './vega-embed.css';

// This module pulls in vega, vega-lite and vega-embed; it is only ever imported lazily (ChartView).

const prefersDark = () => typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches;

/** Single views stretch to the message width; composed views (concat, facet, repeat) keep their own sizes. */
function fitToContainer(spec: Record<string, unknown>): Record<string, unknown> {
  const single = ('mark' in spec || 'layer' in spec) && !('facet' in spec) && !('repeat' in spec);
  if (!single || 'width' in spec) return spec;
  return { ...spec, width: 'container', autosize: { type: 'fit', contains: 'padding' } };
}

export default function VegaChart({ spec }: { spec: Record<string, unknown> }) {
  const [error, setError] = useState<string | null>(null);
  const fitted = useMemo(() => fitToContainer(embeddableSpec(spec)) as VisualizationSpec, [spec]);
  const options = useMemo<EmbedOptions>(() => embedOptions(prefersDark()), []);
  if (error) return <ErrorBox code="CHART_RENDER_FAILED" message={`The chart could not be drawn: ${error}`} hint="The data is in the table above; ask for another kind of chart." />;
  return (
    <VegaEmbed
      className="vega-chart"
      spec={fitted}
      options={options}
      onError={(err) => setError(err instanceof Error ? err.message : String(err))}
    />
  );
}
