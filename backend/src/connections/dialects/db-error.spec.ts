import { describe, expect, it } from 'vitest';
import { classifyDbError, connectionFailed, queryFailed, redactSecret } from './db-error.js';

describe('classifyDbError', () => {
  it.each([
    ['postgres', { code: '42601' }, 'syntax'],
    ['postgres', { code: '42703' }, 'column_not_found'],
    ['postgres', { code: '42P01' }, 'table_not_found'],
    ['postgres', { code: '42501' }, 'permission'],
    ['postgres', { code: '57014' }, 'timeout'],
    ['postgres', { code: '25006' }, 'read_only'],
    ['postgres', { code: '42883' }, 'type_mismatch'],
    ['postgres', { code: '42803' }, 'syntax'],
    ['postgres', { code: '22012' }, 'execution'],
    ['mysql', { errno: 1064 }, 'syntax'],
    ['mysql', { errno: 1054 }, 'column_not_found'],
    ['mysql', { errno: 1146 }, 'table_not_found'],
    ['mysql', { errno: 1142 }, 'permission'],
    ['mysql', { errno: 1969 }, 'timeout'],
    ['mysql', { errno: 1792 }, 'read_only'],
    ['mysql', { errno: 1366 }, 'type_mismatch'],
    ['mysql', { errno: 1365 }, 'execution'],
    ['sqlite', { message: 'near "SELEC": syntax error' }, 'syntax'],
    ['sqlite', { message: 'no such column: Nme' }, 'column_not_found'],
    ['sqlite', { message: 'no such table: Artists' }, 'table_not_found'],
    ['sqlite', { code: 'SQLITE_READONLY', message: 'attempt to write a readonly database' }, 'read_only'],
    ['sqlite', { code: 'SQLITE_MISMATCH', message: 'datatype mismatch' }, 'type_mismatch'],
    ['sqlite', { message: 'integer overflow' }, 'execution'],
  ] as const)('%s %j → %s', (dialect, err, cls) => {
    expect(classifyDbError(dialect, err)).toBe(cls);
  });
});

describe('messages', () => {
  it('QUERY_FAILED keeps the database message, adds the hint, and maps the position into the user statement', () => {
    const err = queryFailed('postgres', { code: '42703', message: 'column "titel" does not exist', hint: 'Perhaps you meant "title".', position: '50' }, { positionOffset: 42 });
    expect(err.code).toBe('QUERY_FAILED');
    expect(err.message).toBe('column "titel" does not exist (hint: Perhaps you meant "title".)');
    expect(err.details).toEqual({ class: 'column_not_found', db_code: '42703', position: 8 });
  });

  it('never lets the password through', () => {
    expect(redactSecret('login as s3cret-pw failed', 's3cret-pw')).toBe('login as *** failed');
    const err = connectionFailed(
      { id: 'x', dialect: 'postgres', host: 'h', port: 1, user: 'u', password: 's3cret-pw' },
      { code: '28P01', message: 'password s3cret-pw rejected' },
      { connectTimeoutMs: 5000 },
    );
    expect(err.message).toBe('password *** rejected');
  });

  it('names the host, port and timeout when the server cannot be reached', () => {
    const target = { id: 'x', dialect: 'postgres' as const, host: '10.0.0.5', port: 5432 };
    expect(connectionFailed(target, { message: 'timeout expired' }, { connectTimeoutMs: 5000 }).message).toBe('could not reach 10.0.0.5:5432 within 5 s');
    expect(connectionFailed(target, { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND' }, { connectTimeoutMs: 5000 }).message).toBe(
      'could not resolve the host name 10.0.0.5',
    );
  });
});
