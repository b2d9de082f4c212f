import { describe, expect, it } from 'vitest';
import { chartWriterPrompt } from './prompts.js';
import { CHART_SAMPLE_EXCERPT, excerptRows, excerptValue } from './result-excerpt.js';
import { describeForModel } from './tools/ask-database.tool.js';

const huge = `${'x'.repeat(65_000)}…[cut: 104,857,600 bytes]`;

describe('what prompts carry of a result', () => {
  it('shortens a value and says how large it was', () => {
    const short = excerptValue(huge, 80);
    expect(short.length).toBeLessThanOrEqual(80);
    expect(short.endsWith('…[104,857,600 bytes]')).toBe(true);
    expect(excerptValue('small', 80)).toBe('small');
  });

  it('bounds the tool result the model reads, whatever the number and width of rows and columns', () => {
    const columns = Array.from({ length: 300 }, (_, i) => `column_${i}`);
    const rows = Array.from({ length: 500 }, () => Object.fromEntries(columns.map((c) => [c, huge])));
    const text = describeForModel('SELECT *', { columns, rows, row_count: 500, truncated: true, truncated_reason: 'result_bytes' });
    expect(text.length).toBeLessThanOrEqual(4100);
    expect(text).toContain("byte budget");
  });

  it("bounds the chart writer's sample rows", () => {
    const columns = ['a', 'b', 'c'];
    const rows = Array.from({ length: 50 }, () => ({ a: huge, b: huge, c: huge }));
    const sample = excerptRows(columns, rows, CHART_SAMPLE_EXCERPT);
    const prompt = chartWriterPrompt(columns.map((name) => ({ name, type: 'nominal' })), sample, 50);
    expect(prompt.length).toBeLessThan(6000);
    expect(prompt).toContain('…[104,857,600 bytes]');
  });
});
