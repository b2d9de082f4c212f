import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC keeps Nest's decorator metadata (esbuild drops emitDecoratorMetadata).
// Three tiers (README "Testing"): `unit` (pure functions beside the code), `service` (services in-process with the
// in-memory fakes of test/fakes: no database, no HTTP) and `integration` (the app and the adapters against real
// PostgreSQL, MariaDB and SQLite). `npm test` runs all three; `npm run test:fast` the first two.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.spec.ts', 'eval/**/*.spec.ts'] } },
      { extends: true, test: { name: 'service', include: ['test/service/**/*.test.ts'], testTimeout: 5_000 } },
      { extends: true, test: { name: 'integration', include: ['test/*.test.ts'], globalSetup: ['test/support/global-setup.ts'] } },
    ],
  },
});
