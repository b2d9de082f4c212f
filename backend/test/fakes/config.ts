import { type AppConfig, loadConfig } from '../../src/config/env.schema.js';

/** The real validated config (defaults, then `overrides` as environment variables would give them). */
export function testConfig(overrides: Record<string, string | number> = {}): AppConfig {
  return loadConfig({ DATA_DIR: '/nonexistent/aigis-service-tier', ...Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, String(v)])) });
}
