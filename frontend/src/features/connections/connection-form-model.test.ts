import { describe, expect, it } from 'vitest';
import type { Connection } from '@aigis/contracts';
import { describeElevated, emptyForm, formFromConnection, parseConnectionUrl, passwordWillBeDropped, toConnectionInput, validateForm } from './connection-form-model';

describe('parseConnectionUrl', () => {
  it('fills every field from a PostgreSQL URL, decoding escapes', () => {
    expect(parseConnectionUrl(' postgresql://app%40ro:p%40ss%3Aword@db.example.com:6543/chinook?sslmode=require ')).toEqual({
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
    const r = parseConnectionUrl('mysql://reader@localhost/shop');
    expect(r).toEqual({
      values: { dialect: 'mysql', host: 'localhost', port: '3306', database: 'shop', user: 'reader', sslMode: 'disable', name: 'shop' },
    });
  });

  it('treats sslmode=disable as no SSL', () => {
    const r = parseConnectionUrl('postgres://u:p@h/db?sslmode=disable');
    expect('values' in r && r.values.sslMode).toBe('disable');
  });

  it('keeps verify-full and MySQL VERIFY_IDENTITY, and refuses prefer (it would fall back to plain text)', () => {
    expect(parseConnectionUrl('postgres://u@h/db?sslmode=verify-full')).toMatchObject({ values: { sslMode: 'verify-full' } });
    expect(parseConnectionUrl('mysql://u@h/db?ssl-mode=VERIFY_IDENTITY')).toMatchObject({ values: { sslMode: 'verify-full' } });
    expect(parseConnectionUrl('postgres://u@h/db?sslmode=prefer')).toHaveProperty('error');
  });

  it('reads a SQLite file path', () => {
    expect(parseConnectionUrl('sqlite:///demo/store.db')).toEqual({ values: { dialect: 'sqlite', database: 'demo/store.db' } });
  });

  it('rejects other schemes with a message', () => {
    expect(parseConnectionUrl('mongodb://x/y')).toHaveProperty('error');
    expect(parseConnectionUrl('just text')).toHaveProperty('error');
  });
});

describe('connection form', () => {
  const saved: Connection = {
    id: 'c1', name: 'n', dialect: 'postgres', host: 'db', port: 5432, database: 'd', user: 'u', ssl: true, ssl_mode: 'verify-full',
    ssl_ca: null, has_password: true, elevated_privileges: null, allowed_functions: [], is_demo: false, created_at: '', updated_at: '',
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
