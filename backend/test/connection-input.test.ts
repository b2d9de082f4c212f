import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConnectionBody, specFromCreate, specFromUpdate, specFromUrl } from '../src/connections/connection-input.js';
import { listSqliteFiles, resolveSqliteFile } from '../src/connections/sqlite-files.js';

describe('connection URLs', () => {
  it.each([
    ['postgres://alice:p%40ss%3Aword@db.example.com:6543/sales?sslmode=require', { dialect: 'postgres', host: 'db.example.com', port: 6543, database: 'sales', user: 'alice', password: 'p@ss:word', sslMode: 'require' }],
    ['postgresql://bob@localhost/app', { dialect: 'postgres', host: 'localhost', port: 5432, database: 'app', user: 'bob', password: null, sslMode: 'disable' }],
    ['mysql://root@127.0.0.1/Chinook', { dialect: 'mysql', port: 3306, database: 'Chinook', user: 'root' }],
    ['mariadb://u:pw@[::1]:3307', { dialect: 'mysql', host: '::1', port: 3307, database: null }],
    ['sqlite:shop/demo.sqlite', { dialect: 'sqlite', database: 'shop/demo.sqlite' }],
    ['postgres://u@h/d?sslmode=verify-full', { sslMode: 'verify-full' }],
    ['postgres://u@h/d?sslmode=verify-ca&sslrootcert=system', { sslMode: 'verify-ca' }],
    ['mysql://u@h/d?ssl-mode=VERIFY_IDENTITY', { sslMode: 'verify-full' }],
    ['mysql://u@h/d?ssl-mode=REQUIRED', { sslMode: 'require' }],
    ['mysql://u@h/d?ssl=true', { sslMode: 'require' }],
  ])('parses %s', (url, expected) => {
    expect(specFromUrl(url)).toMatchObject(expected);
  });

  it.each([
    ['oracle://x@y/z', /unsupported scheme "oracle:"/],
    ['not a url', /not a valid URL/],
    ['postgres://u@host', /database name is missing/],
    ['postgres://u@h/d?sslmode=prefer', /sslmode=prefer is not supported/],
    ['mysql://u@h/d?ssl-mode=PREFERRED', /sslmode=preferred is not supported/],
    ['postgres://u@h/d?sslmode=verify-full&sslrootcert=/etc/ssl/private/key.pem', /sslrootcert is not supported/],
  ])('explains what is wrong with %s', (url, message) => {
    expect(() => specFromUrl(url)).toThrow(message);
  });

  it('validates discrete fields with messages naming the field', () => {
    const result = createConnectionBody.safeParse({ name: 'x', dialect: 'postgres', host: 'db', port: 70000, database: 'd', user: 'u' });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error!.issues)).toMatch(/65535/);
    expect(createConnectionBody.safeParse({ dialect: 'oracle', host: 'h' }).success).toBe(false);
    expect(specFromCreate({ dialect: 'mysql', host: 'h', user: 'u' } as never)).toMatchObject({ port: 3306, name: 'mysql on h', database: null });
  });

  it('applies a PATCH: password absent keeps, null removes, dialect change resets the port', () => {
    const current = { name: 'n', dialect: 'postgres' as const, host: 'h', port: 5432, database: 'd', user: 'u', sslMode: 'disable' as const, sslCa: null };
    expect(specFromUpdate(current, { name: 'renamed' })).toMatchObject({ name: 'renamed', passwordChanged: false });
    expect(specFromUpdate(current, { password: null })).toMatchObject({ password: null, passwordChanged: true });
    expect(specFromUpdate(current, { password: 'new' })).toMatchObject({ password: 'new', passwordChanged: true });
    expect(specFromUpdate(current, { dialect: 'mysql', password: 'pw' })).toMatchObject({ port: 3306 });
    expect(() => specFromUpdate(current, { user: null })).toThrow(/user/);
  });

  it('drops the stored password when the server, database, user or dialect changes without a new one', () => {
    const current = { name: 'n', dialect: 'postgres' as const, host: 'h', port: 5432, database: 'd', user: 'u', sslMode: 'disable' as const, sslCa: null };
    const dropped = { password: null, passwordChanged: true, passwordDropped: true };
    for (const patch of [
      { host: 'evil.example.com' },
      { port: 6543 },
      { database: 'other' },
      { user: 'admin' },
      { dialect: 'mysql' as const },
      { url: 'postgres://u@evil.example.com:5432/d' },
      { url: 'postgres://u@h:5433/d' },
    ]) {
      expect(specFromUpdate(current, patch), JSON.stringify(patch)).toMatchObject(dropped);
    }
    // The same server again (a URL that says what is stored), stronger TLS or a rename keeps it.
    expect(specFromUpdate(current, { url: 'postgres://u@h:5432/d' })).toMatchObject({ passwordChanged: false, passwordDropped: false });
    expect(specFromUpdate(current, { ssl_mode: 'verify-full' })).toMatchObject({ passwordChanged: false });
    expect(specFromUpdate(current, { host: 'h', name: 'x' })).toMatchObject({ passwordChanged: false });
    // A new password with the move is the new password.
    expect(specFromUpdate(current, { host: 'elsewhere', password: 'fresh' })).toMatchObject({ password: 'fresh', passwordDropped: false });
    expect(specFromUpdate(current, { url: 'postgres://u:fresh@elsewhere/d' })).toMatchObject({ password: 'fresh', passwordDropped: false });
  });

  it('drops the stored password when TLS gets weaker or a verified connection trusts another CA', () => {
    const verified = { name: 'n', dialect: 'postgres' as const, host: 'h', port: 5432, database: 'd', user: 'u', sslMode: 'verify-full' as const, sslCa: 'CA-1' };
    expect(specFromUpdate(verified, { ssl_mode: 'require' })).toMatchObject({ passwordDropped: true });
    expect(specFromUpdate(verified, { ssl: false })).toMatchObject({ passwordDropped: true });
    expect(specFromUpdate(verified, { ssl_mode: 'verify-ca' })).toMatchObject({ passwordDropped: true });
    expect(specFromUpdate(verified, { ssl_ca: null })).toMatchObject({ passwordDropped: true });
    expect(specFromUpdate(verified, { url: 'postgres://u@h:5432/d?sslmode=disable' })).toMatchObject({ passwordDropped: true });
    expect(specFromUpdate(verified, { name: 'renamed' })).toMatchObject({ passwordDropped: false, sslMode: 'verify-full', sslCa: 'CA-1' });
  });
});

describe('SQLite files are confined to SQLITE_ROOT', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-root-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-out-'));
  const header = Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)]);
  fs.mkdirSync(path.join(root, 'sub'));
  fs.writeFileSync(path.join(root, 'sub', 'a.sqlite'), header);
  fs.writeFileSync(path.join(root, 'noext'), header);
  fs.writeFileSync(path.join(root, 'notes.txt'), 'hello');
  fs.writeFileSync(path.join(outside, 'secret.sqlite'), header);
  fs.symlinkSync(path.join(outside, 'secret.sqlite'), path.join(root, 'escape.sqlite'));
  const appDb = path.join(root, 'aigis.sqlite');
  fs.writeFileSync(appDb, header);
  // Another name for the same file (a hard link) is still the app's own database.
  fs.linkSync(appDb, path.join(root, 'innocent.sqlite'));

  it('resolves relative names inside the root', () => {
    expect(resolveSqliteFile(root, 'sub/a.sqlite', [appDb])).toBe(fs.realpathSync(path.join(root, 'sub', 'a.sqlite')));
    expect(resolveSqliteFile(root, path.join(root, 'noext'), [appDb])).toBe(fs.realpathSync(path.join(root, 'noext')));
  });

  it.each([
    ['../x.sqlite', /"\.\." is not allowed/],
    ['sub/../../etc/passwd', /"\.\." is not allowed/],
    [path.join(outside, 'secret.sqlite'), /no SQLite file .* that you may use under SQLITE_ROOT/],
    ['/etc/passwd', /no SQLite file .* that you may use/],
    ['escape.sqlite', /no SQLite file .* that you may use/],
    ['missing.sqlite', /no SQLite file .* that you may use/],
    ['sub', /no SQLite file .* that you may use/],
    ['aigis.sqlite', /no SQLite file .* that you may use/],
    ['innocent.sqlite', /no SQLite file .* that you may use/],
  ])('refuses %s', (requested, message) => {
    expect(() => resolveSqliteFile(root, requested, [appDb])).toThrow(message);
  });

  it('confines a scoped user to the folders and files in scope, with the same message as a missing file', () => {
    const scope = { everything: false as const, within: [path.join(root, 'sub'), path.join(root, 'noext')] };
    expect(resolveSqliteFile(root, 'sub/a.sqlite', [appDb], scope)).toBe(fs.realpathSync(path.join(root, 'sub', 'a.sqlite')));
    expect(resolveSqliteFile(root, 'noext', [appDb], scope)).toBe(fs.realpathSync(path.join(root, 'noext')));
    const messageFor = (requested: string) => {
      try {
        resolveSqliteFile(root, requested, [appDb], scope);
        return 'resolved';
      } catch (error) {
        return (error as Error).message.replace(requested, '<path>');
      }
    };
    // Exists but out of scope, and does not exist at all: indistinguishable.
    fs.writeFileSync(path.join(root, 'other.sqlite'), header);
    expect(messageFor('other.sqlite')).toBe(messageFor('nothing-here.sqlite'));
    expect(messageFor('other.sqlite')).not.toBe('resolved');
    expect(listSqliteFiles(root, [appDb], 500, scope).map((f) => f.path).sort()).toEqual(['noext', 'sub/a.sqlite']);
  });

  it('lists SQLite files by extension or header, never the app database', () => {
    const files = listSqliteFiles(root, [appDb]).map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['noext', 'sub/a.sqlite']));
    expect(files).not.toContain('aigis.sqlite');
    expect(files).not.toContain('notes.txt');
  });
});
