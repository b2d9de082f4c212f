import { describe, expect, it } from 'vitest';
import { parseConnectionUrl } from './connection-url.js';

const value = (url: string) => {
  const result = parseConnectionUrl(url);
  if (!result.ok) throw new Error(result.error);
  return result.value;
};
const error = (url: string) => {
  const result = parseConnectionUrl(url);
  return result.ok ? undefined : result.error;
};

describe('parseConnectionUrl', () => {
  it.each([
    [' postgres://alice:p%40ss%3Aword@db.example.com:6543/sales?sslmode=require ', { dialect: 'postgres', host: 'db.example.com', port: 6543, database: 'sales', user: 'alice', password: 'p@ss:word', sslMode: 'require' }],
    ['postgresql://bob@localhost/app', { dialect: 'postgres', host: 'localhost', port: 5432, database: 'app', user: 'bob', password: null, sslMode: 'disable' }],
    ['postgresql+psycopg2://bob@localhost/app', { dialect: 'postgres', port: 5432, database: 'app' }],
    ['mysql://root@127.0.0.1/Chinook', { dialect: 'mysql', port: 3306, database: 'Chinook', user: 'root' }],
    ['mariadb://u:pw@[::1]:3307', { dialect: 'mysql', host: '::1', port: 3307, database: null, password: 'pw' }],
    ['postgres://u@h/d?sslmode=verify-ca&sslrootcert=system', { sslMode: 'verify-ca' }],
    ['mysql://u@h/d?ssl-mode=VERIFY_IDENTITY', { sslMode: 'verify-full' }],
    ['mysql://u@h/d?ssl_mode=required', { sslMode: 'require' }],
    ['postgres://u@h', { database: null }],
  ])('reads %s', (url, expected) => {
    expect(value(url)).toMatchObject(expected);
  });

  it('turns TLS on for ?ssl=1 and ?ssl=true, off for ?ssl=0 and ?ssl=false; sslmode wins', () => {
    expect(value('postgres://u@h/d?ssl=1').sslMode).toBe('require');
    expect(value('mysql://u@h/d?ssl=TRUE').sslMode).toBe('require');
    expect(value('postgres://u@h/d?ssl=0').sslMode).toBe('disable');
    expect(value('postgres://u@h/d?ssl=false').sslMode).toBe('disable');
    expect(value('postgres://u@h/d?ssl=1&sslmode=verify-full').sslMode).toBe('verify-full');
    expect(error('postgres://u@h/d?ssl=yes')).toMatch(/ssl=yes is not understood/);
  });

  it('reads SQLite URLs the way SQLAlchemy does: three slashes relative to SQLITE_ROOT, four absolute', () => {
    expect(value('sqlite:///demo.db')).toEqual({ dialect: 'sqlite', host: null, port: null, database: 'demo.db', user: null, password: null, sslMode: 'disable' });
    expect(value('sqlite:///shop/demo.sqlite').database).toBe('shop/demo.sqlite');
    expect(value('sqlite:demo.db').database).toBe('demo.db');
    expect(value('sqlite://demo.db').database).toBe('demo.db');
    expect(value('SQLite:///my%20data.db').database).toBe('my data.db');
    expect(value('sqlite:////srv/data/demo.db').database).toBe('/srv/data/demo.db');
    expect(value('file:///demo.db').database).toBe('demo.db');
  });

  it.each([
    ['oracle://x@y/z', /unsupported scheme "oracle:"/],
    ['constructor://x@y/z', /unsupported scheme "constructor:"/],
    ['not a url', /not a valid URL/],
    ['postgres://', /not a valid URL|host is missing/],
    ['postgres:///db', /host is missing/],
    ['postgres://u@h/d?sslmode=prefer', /sslmode=prefer is not supported/],
    ['postgres://u@h/d?sslmode=__proto__', /sslmode=__proto__ is not supported/],
    ['mysql://u@h/d?ssl-mode=PREFERRED', /sslmode=preferred is not supported/],
    ['postgres://u@h/d?sslmode=verify-full&sslrootcert=/etc/ssl/private/key.pem', /sslrootcert is not supported/],
    ['mysql://u@h/d?ssl-ca=/etc/ca.pem', /ssl-ca is not supported/],
    ['postgres://u%zz@h/d', /user has a malformed percent-escape/],
    ['sqlite:///', /names no database file/],
    ['sqlite:', /names no database file/],
    ['sqlite:///demo.db?mode=ro', /takes no options/],
    ['sqlite:///bad%zz.db', /file name has a malformed percent-escape/],
  ])('explains what is wrong with %s', (url, message) => {
    expect(error(url)).toMatch(message);
  });
});
