import type { Loader } from 'vega';
import type { EmbedOptions } from 'vega-embed';

/**
 * How every chart is embedded. A chart draws the rows the server put into it and nothing else:
 * whatever a spec says, vega gets a loader that refuses every URL (data, images, links), expressions
 * run in vega's interpreter (no `eval`, so the CSP needs no 'unsafe-eval'), tooltips are plain text
 * (the `title` attribute, never HTML), and there is no "Open in Vega Editor" (it posts the data to
 * an external site).
 */

export const NO_NETWORK = 'Charts load nothing from the network';

const refuse = (): Promise<never> => Promise.reject(new Error(NO_NETWORK));

/** vega's loader interface, with every way to reach a URL refused. */
export const refusingLoader: Loader = { load: refuse, sanitize: refuse, http: refuse, file: refuse };

export function embedOptions(dark: boolean): EmbedOptions {
  return {
    mode: 'vega-lite',
    renderer: 'svg',
    theme: dark ? 'dark' : undefined,
    loader: refusingLoader,
    ast: true,
    tooltip: false,
    // vega-embed would add its stylesheet as an inline <style>; ours is a file (vega-embed.css).
    defaultStyle: false,
    forceActionsMenu: true,
    // Export as SVG/PNG from the chart menu; the spec is shown by our own "View spec".
    actions: { export: { svg: true, png: true }, source: false, compiled: false, editor: false },
    downloadFileName: 'aigis-chart',
  };
}

/**
 * The spec as vega-embed may see it. The server cleans specs, but a thread saved before it did can
 * still hold: `usermeta` (vega-embed merges its `embedOptions` over ours: a loader, a JSON patch, the
 * editor action…), `$schema` (it picks Vega instead of Vega-Lite) and `href`s (links out of a chart;
 * vega's SVG renderer throws on a refused one). Data and image URLs meet the refusing loader.
 */
export function embeddableSpec(spec: Record<string, unknown>): Record<string, unknown> {
  const { usermeta: _usermeta, $schema: _schema, ...rest } = spec;
  return withoutHrefs(rest) as Record<string, unknown>;
}

function withoutHrefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutHrefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'href').map(([key, item]) => [key, withoutHrefs(item)]));
}
