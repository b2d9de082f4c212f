import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The API server (backend, port 3000) serves the built app; in dev, Vite serves the app with hot
// reload and forwards /api there (SSE included: the proxy streams, it does not buffer).
const apiTarget = process.env.AIGIS_API ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // The vega chunk is large by nature (it is lazy-loaded); warn only about much larger ones.
    chunkSizeWarningLimit: 1500,
  },
  test: {
    // `vitest run` runs both; `--project unit` or `--project e2e` runs one (npm run test:unit / test:e2e).
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'], environment: 'node' },
      },
      {
        // Headless Chromium against the built app (backend/dist + frontend/dist) started as a child
        // process, with a scripted model and real PostgreSQL; one app and one browser per file.
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          environment: 'node',
          pool: 'forks',
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
