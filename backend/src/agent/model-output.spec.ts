import { describe, expect, it } from 'vitest';
import { extractJsonObject, extractSql, stripThinking } from './model-output.js';

describe('reading model replies', () => {
  it.each([
    ['```sql\nSELECT 1\n```', 'SELECT 1'],
    ['Here you go:\n```\nWITH a AS (SELECT 1) SELECT * FROM a\n```\nEnjoy', 'WITH a AS (SELECT 1) SELECT * FROM a'],
    ['<think>the user wants counts</think>\nSELECT COUNT(*) FROM t', 'SELECT COUNT(*) FROM t'],
    ['Sure. SELECT * FROM t', null],
    ['The query is:\nselect a from b', 'select a from b'],
    ['DELETE FROM t', 'DELETE FROM t'],
    ['I cannot answer that.', null],
  ])('extracts the SQL of %j', (reply, sql) => {
    expect(extractSql(reply)).toBe(sql);
  });

  it('extracts a JSON object, fenced or bare, and explains what is wrong otherwise', () => {
    expect(extractJsonObject('```json\n{"mark":"bar"}\n```')).toEqual({ value: { mark: 'bar' } });
    expect(extractJsonObject('Spec: {"mark": {"type": "line"}} done')).toEqual({ value: { mark: { type: 'line' } } });
    expect(extractJsonObject('no json here')).toEqual({ error: 'the reply contains no JSON object' });
    expect(extractJsonObject('{"mark": bar}')).toMatchObject({ error: expect.stringMatching(/does not parse/) });
    expect(extractJsonObject('```json\n[1,2]\n```')).toEqual({ error: 'the JSON is not an object' });
  });

  it('strips reasoning, even when the closing tag never came', () => {
    expect(stripThinking('<think>a</think>b')).toBe('b');
    expect(stripThinking('x<think>never closed')).toBe('x');
  });
});
