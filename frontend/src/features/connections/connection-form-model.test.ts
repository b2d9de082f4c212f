import { describe, expect, it } from 'vitest';
import type { Connection } from '@aigis/contracts';
import { describeElevated, emptyForm, formFromConnection, formValuesFromUrl, passwordWillBeDropped, toConnectionInput, validateForm } from './connection-form-model';

describe('formValuesFromUrl', () => {
  it('fills every field from a PostgreSQL URL, decoding escapes', () => {
    expect(formValuesFromUrl(' postgresql://app%40ro:p%40ss%3Aword@db.example.com:6543/chinook?sslmode=require ')).toEqual({
      values: {
        dialect: 'postgres',
        host: 'db.example.com',
        port: '6543',
        database: 'chinook',
        user: 'app@ro',
        password: 'p@ss:word',
        sslMode: 'require',
        name: 'chinook',
      },
    });
  });

  it('uses the default port, no password and no SSL when the URL says nothing', () => {
    const r = formValuesFromUrl('mysql://reader@localhost/shop');
    expect(r).toEqual({
      values: { dialect: 'mysql', host: 'localhost', port: '3306', database: 'shop', user: 'reader', sslMode: 'disable', name: 'shop' },
    });
  });

  it('treats sslmode=disable as no SSL', () => {
    const r = formValuesFromUrl('postgres://u:p@h/db?sslmode=disable');
    expect('values' in r && r.values.sslMode).toBe('disable');
  });

  it('keeps verify-full and MySQL VERIFY_IDENTITY, and refuses prefer (it would fall back to plain text)', () => {
    expect(formValuesFromUrl('postgres://u@h/db?sslmode=verify-full')).toMatchObject({ values: { sslMode: 'verify-full' } });
    expect(formValuesFromUrl('mysql://u@h/db?ssl-mode=VERIFY_IDENTITY')).toMatchObject({ values: { sslMode: 'verify-full' } });
    expect(formValuesFromUrl('postgres://u@h/db?sslmode=prefer')).toHaveProperty('error');
  });

  it('reads a SQLite file path as the API does: sqlite:///file under SQLITE_ROOT, four slashes absolute', () => {
    expect(formValuesFromUrl('sqlite:///demo/store.db')).toEqual({ values: { dialect: 'sqlite', database: 'demo/store.db' } });
    expect(formValuesFromUrl('sqlite:///demo.db')).toEqual({ values: { dialect: 'sqlite', database: 'demo.db' } });
    expect(formValuesFromUrl('sqlite:////srv/data/demo.db')).toEqual({ values: { dialect: 'sqlite', database: '/srv/data/demo.db' } });
    expect(formValuesFromUrl('sqlite:///demo.db?mode=ro')).toEqual({ error: expect.stringMatching(/^Cannot read this URL: a SQLite URL takes no options/) });
  });

  it('turns TLS on for ?ssl=1, as the API does', () => {
    expect(formValuesFromUrl('postgres://u@h/db?ssl=1')).toMatchObject({ values: { sslMode: 'require' } });
    expect(formValuesFromUrl('mysql://u@h/db?ssl=true')).toMatchObject({ values: { sslMode: 'require' } });
  });

  it('refuses what the API would refuse, before anything is sent', () => {
    expect(formValuesFromUrl('postgres://u@h/db?sslrootcert=/etc/ssl/ca.pem')).toEqual({ error: expect.stringMatching(/^Cannot read this URL: sslrootcert is not supported/) });
    expect(formValuesFromUrl('postgres:///db')).toEqual({ error: expect.stringMatching(/^Cannot read this URL: the host is missing/) });
  });

  it('rejects other schemes with a message', () => {
    expect(formValuesFromUrl('mongodb://x/y')).toHaveProperty('error');
    expect(formValuesFromUrl('just text')).toHaveProperty('error');
  });
});

describe('connection form', () => {
  const saved: Connection = {
    id: 'c1', name: 'n', dialect: 'postgres', host: 'db', port: 5432, database: 'd', user: 'u', ssl: true, ssl_mode: 'verify-full',
    ssl_ca: null, has_password: true, elevated_privileges: null, allowed_functions: [], is_demo: false, created_at: '', updated_at: '',
    allowed_tables: [], excluded_tables: [], row_limit: null, statement_timeout_ms: null,
    review: 'expensive', review_thresholds: { cost: 100_000, rows: 1_000_000, scan_rows: 1_000_000 },
  };

  it('says when saving will drop the stored password (moved server, other user, weaker TLS) unless a new one is typed', () => {
    const same = formFromConnection(saved);
    expect(passwordWillBeDropped(saved, { ...same, name: 'renamed' })).toBe(false);
    for (const change of [{ host: 'evil' }, { port: '6543' }, { database: 'x' }, { user: 'admin' }, { sslMode: 'require' as const }, { sslCa: 'other' }]) {
      expect(passwordWillBeDropped(saved, { ...same, ...change }), JSON.stringify(change)).toBe(true);
    }
    expect(passwordWillBeDropped(saved, { ...same, host: 'evil', password: 'new' })).toBe(false);
  });

  it('words elevated privileges', () => {
    expect(describeElevated(['superuser', 'read_server_files', 'run_server_programs'])).toBe(
      'is a superuser, can read files on the database server and can run programs on the database server',
    );
  });

  it('leaves out an empty password so an edit keeps the stored one', () => {
    const v = { ...emptyForm('postgres'), name: 'n', database: 'd', user: 'u', password: '' };
    expect(toConnectionInput(v)).not.toHaveProperty('password');
    expect(toConnectionInput({ ...v, password: 'secret' })).toMatchObject({ password: 'secret', port: 5432 });
  });

  it('does not require a password: trust and socket authentication have none', () => {
    const v = { ...emptyForm('mysql'), name: 'n', database: 'd', user: 'u' };
    expect(validateForm(v)).toEqual({});
    expect(validateForm({ ...v, user: '' })).toEqual({ user: 'Enter the user.' });
  });

  it('sends only name and file for SQLite', () => {
    const v = { ...emptyForm('sqlite'), name: 'Demo', database: 'demo.db', host: 'ignored' };
    expect(toConnectionInput(v)).toEqual({ name: 'Demo', dialect: 'sqlite', database: 'demo.db', allowed_functions: [] });
    expect(toConnectionInput({ ...v, allowedFunctions: ' my_fn, ,public.Other ' }).allowed_functions).toEqual(['my_fn', 'public.Other']);
    expect(validateForm({ ...v, database: '' })).toEqual({ database: 'Pick a database file.' });
  });
});
