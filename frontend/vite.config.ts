import '../scripts/vitest-node20.mjs';
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
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
