import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/env.schema.js';

describe('configuration', () => {
  it('starts on the embedded default with no variables at all', () => {
    const config = loadConfig({});
    expect(config.mode).toBe('embedded');
    expect(config.PORT).toBe(3000);
    expect(config.ROW_LIMIT).toBe(500);
    expect(config.STATEMENT_TIMEOUT_MS).toBe(30_000);
    expect(config.CONNECT_TIMEOUT_MS).toBe(5000);
    expect(config.sqliteRoot.endsWith('/data/sqlite')).toBe(true);
  });

  it('lists every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'chatty', ROW_LIMIT: '-3', DATABASE_URL: 'mysql://x', LM_STUDIO_ENDPOINT: 'not a url' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const variable of ['PORT', 'LOG_LEVEL', 'ROW_LIMIT', 'DATABASE_URL', 'LM_STUDIO_ENDPOINT']) expect(problems).toContain(variable);
    expect((error as ConfigError).message).toMatch(/^Invalid configuration:/);
  });

  it('requires MASTER_ENCRYPTION_KEY in server mode and accepts hex or base64 keys', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db' })).toThrow(/MASTER_ENCRYPTION_KEY/);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', MASTER_ENCRYPTION_KEY: 'ab'.repeat(32) }).mode).toBe('server');
    expect(loadConfig({ MASTER_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).MASTER_ENCRYPTION_KEY).toBeTruthy();
    expect(() => loadConfig({ MASTER_ENCRYPTION_KEY: 'short' })).toThrow(/MASTER_ENCRYPTION_KEY/);
  });

  it('has per-user limits by default and refuses settings that cannot work together', () => {
    const config = loadConfig({});
    expect([config.USER_MAX_CONCURRENT_QUERIES, config.USER_MAX_CONCURRENT_STREAMS, config.USER_MAX_DB_CONNECTIONS, config.USER_MAX_SAVED_CONNECTIONS]).toEqual([4, 3, 10, 50]);
    expect([config.LLM_MAX_TOOL_CALLS_PER_MESSAGE, config.LLM_MAX_TOOL_CALLS_PER_TURN, config.LLM_MAX_MODEL_CALLS_PER_TURN, config.LLM_MAX_TURN_MS]).toEqual([8, 16, 30, 300_000]);
    expect(() => loadConfig({ USER_MAX_CONCURRENT_QUERIES: '0' })).toThrow(/USER_MAX_CONCURRENT_QUERIES/);
    expect(() => loadConfig({ POOL_MAX: '20' })).toThrow(/USER_MAX_DB_CONNECTIONS: must be at least POOL_MAX/);
    expect(() => loadConfig({ LLM_MAX_TURN_MS: '20000' })).toThrow(/LLM_MAX_TURN_MS: must exceed STATEMENT_TIMEOUT_MS/);
  });

  it('has byte budgets by default, and refuses a cell budget larger than the result budget', () => {
    const config = loadConfig({});
    expect([config.RESULT_CELL_MAX_BYTES, config.RESULT_MAX_BYTES, config.TURN_STORE_MAX_BYTES]).toEqual([65_536, 5_242_880, 8_388_608]);
    expect(() => loadConfig({ RESULT_CELL_MAX_BYTES: '2000000', RESULT_MAX_BYTES: '1000000' })).toThrow(/RESULT_CELL_MAX_BYTES/);
    expect(() => loadConfig({ RESULT_MAX_BYTES: '0' })).toThrow(/RESULT_MAX_BYTES/);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).mode).toBe('embedded');
  });
});
