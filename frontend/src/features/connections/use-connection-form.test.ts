import type { Connection } from '@aigis/contracts';
import { describe, expect, it } from 'vitest';
import { connectionFormReducer, initialFormState } from './use-connection-form';

const saved = { id: 'c1', name: 'Sales', dialect: 'postgres', host: 'db', port: 5432, database: 'sales', user: 'u', ssl: false, ssl_mode: 'disable', ssl_ca: null, has_password: true, review: 'always' } as Connection;

describe('connectionFormReducer', () => {
  it('fills the fields from a pasted URL, keeping a name already typed, and shows what it cannot read', () => {
    const named = connectionFormReducer(initialFormState, { type: 'field', key: 'name', value: 'Mine' });
    const filled = connectionFormReducer(named, { type: 'url', text: 'postgres://ann@db.example.com/shop?ssl=1' });
    expect(filled.values).toMatchObject({ name: 'Mine', host: 'db.example.com', database: 'shop', user: 'ann', sslMode: 'require' });
    expect(connectionFormReducer(filled, { type: 'url', text: 'oracle://x' }).urlError).toMatch(/unsupported scheme/);
    expect(connectionFormReducer(filled, { type: 'url', text: 'oracle://x' }).values).toEqual(filled.values);
  });

  it('moves a default port with the dialect but keeps a typed one, and clears the database across SQLite', () => {
    const mysql = connectionFormReducer(initialFormState, { type: 'dialect', dialect: 'mysql' });
    expect(mysql.values.port).toBe('3306');
    const typed = connectionFormReducer(connectionFormReducer(mysql, { type: 'field', key: 'port', value: '6000' }), { type: 'dialect', dialect: 'postgres' });
    expect(typed.values.port).toBe('6000');
    const withDb = connectionFormReducer(typed, { type: 'field', key: 'database', value: 'shop' });
    expect(connectionFormReducer(withDb, { type: 'dialect', dialect: 'sqlite' }).values.database).toBe('');
  });

  it('loads a saved connection with its review mode; saving clears the password and says it was saved', () => {
    const loaded = connectionFormReducer(initialFormState, { type: 'loaded', connection: saved });
    expect(loaded.review).toBe('always');
    const typed = connectionFormReducer(loaded, { type: 'field', key: 'password', value: 'secret' });
    expect(typed.justSaved).toBe(false);
    const done = connectionFormReducer(connectionFormReducer(typed, { type: 'saving' }), { type: 'saved', connection: saved, passwordDropped: false });
    expect(done).toMatchObject({ busy: false, justSaved: true, saved });
    expect(done.values.password).toBe('');
  });
});
