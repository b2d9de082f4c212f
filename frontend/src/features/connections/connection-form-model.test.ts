import { describe, expect, it } from 'vitest';
import { emptyForm, parseConnectionUrl, toConnectionInput, validateForm } from './connection-form-model';

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
        ssl: true,
        name: 'chinook',
      },
    });
  });

  it('uses the default port, no password and no SSL when the URL says nothing', () => {
    const r = parseConnectionUrl('mysql://reader@localhost/shop');
    expect(r).toEqual({
      values: { dialect: 'mysql', host: 'localhost', port: '3306', database: 'shop', user: 'reader', ssl: false, name: 'shop' },
    });
  });

  it('treats sslmode=disable as no SSL', () => {
    const r = parseConnectionUrl('postgres://u:p@h/db?sslmode=disable');
    expect('values' in r && r.values.ssl).toBe(false);
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
