import '../scripts/vitest-node20.mjs';
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['src/**/*.spec.ts'] } });
