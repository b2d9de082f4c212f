import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { toThreadMessages } from './thread-messages.js';

const ATTACKER = 'http://127.0.0.1:9/steal';

function chartTurn(spec: Record<string, unknown>) {
  return [
    new HumanMessage({ id: 'h', content: 'chart it' }),
    new AIMessage({ id: 'a', content: '', tool_calls: [{ id: 'c1', name: 'ask_analyst', args: { request: 'bar chart' } }] }),
    new ToolMessage({ id: 't', content: 'Chart ready', tool_call_id: 'c1', name: 'ask_analyst', artifact: { type: 'vega_lite_spec', spec } }),
  ];
}

describe('stored charts on their way to the browser', () => {
  it('are cleaned again: a chart stored with external references loses them and keeps its rows', () => {
    const values = [{ genre: 'Rock', tracks: 1297 }];
    const stored = {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      usermeta: { embedOptions: { loader: { baseURL: ATTACKER } } },
      data: { values },
      layer: [
        { data: { url: `${ATTACKER}?layer` }, mark: 'bar', encoding: { x: { field: 'genre', type: 'nominal' }, y: { field: 'tracks', type: 'quantitative' } } },
        { mark: { type: 'text', href: ATTACKER }, encoding: { text: { field: 'tracks' }, href: { field: 'genre' } } },
      ],
      transform: [{ lookup: 'genre', from: { data: { url: `${ATTACKER}?lookup` }, key: 'genre', fields: ['x'] } }],
    };
    const [, , tool] = toThreadMessages(chartTurn(stored));
    const shown = JSON.stringify(tool.result);
    expect(shown).not.toContain(ATTACKER);
    expect(shown).not.toContain('usermeta');
    expect((tool.result as { spec: { data: { values: unknown[] } } }).spec.data.values).toEqual(values);
  });

  it('an image mark is not shown at all', () => {
    const [, , tool] = toThreadMessages(chartTurn({ data: { values: [{ u: 'x' }] }, mark: 'image', encoding: { url: { field: 'u' } } }));
    expect(tool.result).toMatchObject({ type: 'text' });
    expect(JSON.stringify(tool.result)).not.toContain('"url"');
  });
});
