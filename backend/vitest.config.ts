import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC keeps Nest's decorator metadata (esbuild drops emitDecoratorMetadata).
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    include: ['src/**/*.spec.ts', 'eval/**/*.spec.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
