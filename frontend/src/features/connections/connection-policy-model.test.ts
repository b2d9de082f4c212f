import { describe, expect, it } from 'vitest';
import { describePolicy, emptyPolicyForm, parseEntries, policyFormFrom, POLICY_LIMITS, toPolicyInput, validatePolicy } from './connection-policy-model';

describe('connection policy form', () => {
  it('reads one entry a line, dropping blanks and repeats', () => {
    expect(parseEntries(' public.orders \n\nhr.*\r\npublic.orders\n"odd.schema".t ')).toEqual(['public.orders', 'hr.*', '"odd.schema".t']);
  });

  it('round-trips a connection, with the timeout shown in seconds', () => {
    const policy = { allowed_tables: ['public.*'], excluded_tables: ['public.salaries', 'audit.*'], row_limit: 200, statement_timeout_ms: 2500 };
    const form = policyFormFrom(policy);
    expect(form).toEqual({ allowedTables: 'public.*', excludedTables: 'public.salaries\naudit.*', rowLimit: '200', timeoutSeconds: '2.5' });
    expect(toPolicyInput(form)).toEqual(policy);
  });

  it('sends every field, so clearing one clears it on the server', () => {
    expect(toPolicyInput(emptyPolicyForm())).toEqual({ allowed_tables: [], excluded_tables: [], row_limit: null, statement_timeout_ms: null });
  });

  it('refuses limits that are not whole rows or sensible seconds', () => {
    for (const rowLimit of ['0', '1.5', '-3', 'ten', String(POLICY_LIMITS.rowLimit + 1)]) {
      expect(validatePolicy({ ...emptyPolicyForm(), rowLimit }).rowLimit, rowLimit).toMatch(/whole number/);
    }
    for (const timeoutSeconds of ['0', '0.05', '1e3', '-1', String(POLICY_LIMITS.timeoutMs / 1000 + 1)]) {
      expect(validatePolicy({ ...emptyPolicyForm(), timeoutSeconds }).timeoutSeconds, timeoutSeconds).toMatch(/^Seconds from 0.1/);
    }
    expect(validatePolicy({ ...emptyPolicyForm(), rowLimit: ' 1000000 ', timeoutSeconds: '0.1' })).toEqual({});
  });

  it('bounds the lists the way the API does', () => {
    const many = Array.from({ length: POLICY_LIMITS.entries + 1 }, (_, i) => `t${i}`).join('\n');
    expect(validatePolicy({ ...emptyPolicyForm(), excludedTables: many }).excludedTables).toMatch(/^At most 1,000 entries/);
    expect(validatePolicy({ ...emptyPolicyForm(), allowedTables: 'x'.repeat(POLICY_LIMITS.entryLength + 1) }).allowedTables).toMatch(/longer than 300/);
  });

  it('sums the policy up for the closed section', () => {
    expect(describePolicy(toPolicyInput(emptyPolicyForm()))).toBeNull();
    expect(describePolicy({ allowed_tables: ['a', 'b'], excluded_tables: ['c'], row_limit: 1000, statement_timeout_ms: 5000 })).toBe('2 allowed · 1 excluded · 1,000 rows · 5 s timeout');
  });
});
