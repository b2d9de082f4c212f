/** The table policy and per-connection limits in the connection form: form values ⇄ API fields (pure). */

/** The connection's policy fields as the API answers and accepts them (null limits: the instance's). */
export interface ConnectionPolicy {
  allowed_tables: string[];
  excluded_tables: string[];
  row_limit: number | null;
  statement_timeout_ms: number | null;
}

export interface PolicyFormValues {
  /** One entry a line: `name`, `schema.name` or `schema.*`. */
  allowedTables: string;
  excludedTables: string;
  /** Empty: the instance's default. */
  rowLimit: string;
  /** In seconds (the API takes milliseconds); empty: the instance's default. */
  timeoutSeconds: string;
}

/** The API's bounds (it checks them again, and the instance's maxima too). */
export const POLICY_LIMITS = { entries: 1000, entryLength: 300, rowLimit: 1_000_000, timeoutMs: 3_600_000, minTimeoutMs: 100 } as const;

export const emptyPolicyForm = (): PolicyFormValues => ({ allowedTables: '', excludedTables: '', rowLimit: '', timeoutSeconds: '' });

export function policyFormFrom(c: ConnectionPolicy): PolicyFormValues {
  return {
    allowedTables: c.allowed_tables.join('\n'),
    excludedTables: c.excluded_tables.join('\n'),
    rowLimit: c.row_limit === null ? '' : String(c.row_limit),
    timeoutSeconds: c.statement_timeout_ms === null ? '' : String(c.statement_timeout_ms / 1000),
  };
}

/** One entry a line, trimmed; blank lines and repeats dropped. */
export function parseEntries(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean))];
}

export type PolicyErrors = Partial<Record<keyof PolicyFormValues, string>>;

function entriesError(text: string): string | undefined {
  const entries = parseEntries(text);
  if (entries.length > POLICY_LIMITS.entries) return `At most ${POLICY_LIMITS.entries.toLocaleString()} entries (this has ${entries.length.toLocaleString()}).`;
  const long = entries.find((e) => e.length > POLICY_LIMITS.entryLength);
  return long ? `“${long.slice(0, 40)}…” is longer than ${POLICY_LIMITS.entryLength} characters.` : undefined;
}

const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;

export function validatePolicy(v: PolicyFormValues): PolicyErrors {
  const errors: PolicyErrors = {};
  const allowed = entriesError(v.allowedTables);
  if (allowed) errors.allowedTables = allowed;
  const excluded = entriesError(v.excludedTables);
  if (excluded) errors.excludedTables = excluded;
  const rows = v.rowLimit.trim();
  if (rows && (!WHOLE.test(rows) || Number(rows) < 1 || Number(rows) > POLICY_LIMITS.rowLimit)) {
    errors.rowLimit = `A whole number from 1 to ${POLICY_LIMITS.rowLimit.toLocaleString()}, or empty for the default.`;
  }
  const seconds = v.timeoutSeconds.trim();
  if (seconds) {
    const ms = Math.round(Number(seconds) * 1000);
    if (!DECIMAL.test(seconds) || ms < POLICY_LIMITS.minTimeoutMs || ms > POLICY_LIMITS.timeoutMs) {
      errors.timeoutSeconds = `Seconds from ${POLICY_LIMITS.minTimeoutMs / 1000} to ${(POLICY_LIMITS.timeoutMs / 1000).toLocaleString()}, or empty for the default.`;
    }
  }
  return errors;
}

/** The fields sent on save (every one, so clearing a list or a limit clears it on the server). */
export function toPolicyInput(v: PolicyFormValues): ConnectionPolicy {
  const rows = v.rowLimit.trim();
  const seconds = v.timeoutSeconds.trim();
  return {
    allowed_tables: parseEntries(v.allowedTables),
    excluded_tables: parseEntries(v.excludedTables),
    row_limit: rows ? Number(rows) : null,
    statement_timeout_ms: seconds ? Math.round(Number(seconds) * 1000) : null,
  };
}

/** "2 allowed, 1 excluded · 100 rows · 5 s": a summary for the closed section. */
export function describePolicy(c: ConnectionPolicy): string | null {
  const parts = [
    c.allowed_tables.length ? `${c.allowed_tables.length} allowed` : null,
    c.excluded_tables.length ? `${c.excluded_tables.length} excluded` : null,
    c.row_limit !== null ? `${c.row_limit.toLocaleString()} rows` : null,
    c.statement_timeout_ms !== null ? `${c.statement_timeout_ms / 1000} s timeout` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}
