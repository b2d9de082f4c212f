import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../config/env.schema.js';

/** Paths pino censors wherever they appear in a log object: passwords, tokens, keys. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  'token',
  'apiKey',
  'api_key',
  'sealed_password',
  'MASTER_ENCRYPTION_KEY',
  '*.password',
  '*.token',
  '*.apiKey',
  '*.api_key',
  '*.sealed_password',
  '*.authorization',
  '*.MASTER_ENCRYPTION_KEY',
  '*.*.password',
  '*.*.apiKey',
];

export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.LOG_LEVEL,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      // Request bodies are never logged; the URL and status are enough to follow a request.
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      autoLogging: { ignore: (req) => req.url === '/api/health' },
    },
  };
}
