import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.schema.js';
import { loggerParams } from './logging.js';

describe('structured logs', () => {
  it('redact passwords, tokens and keys wherever they appear', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const params = loggerParams(loadConfig({ LOG_LEVEL: 'debug' }));
    const options = params.pinoHttp as { level: string; redact: pino.LoggerOptions['redact'] };
    const logger = pino({ level: options.level, redact: options.redact }, sink);
    logger.info({ password: 'pw-top', token: 'aig_secret1', connection: { password: 'pw-nested', sealed_password: 'v1.abc' }, provider: { apiKey: 'sk-live-1' } }, 'saving');
    logger.info({ req: { headers: { authorization: 'Bearer aig_secret2', cookie: 'sid=1' }, url: '/api/x' } }, 'request');
    logger.info({ env: { MASTER_ENCRYPTION_KEY: 'ab'.repeat(32) } }, 'boot');
    const text = lines.join('');
    for (const secret of ['pw-top', 'aig_secret1', 'pw-nested', 'v1.abc', 'sk-live-1', 'aig_secret2', 'sid=1', 'ab'.repeat(32)]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
    expect(text).toContain('/api/x');
  });
});
