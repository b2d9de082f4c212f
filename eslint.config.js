// ESLint over every workspace (`npm run lint:eslint`): rules that catch defects, not a style; formatting is left
// as it is. Layering is dependency-cruiser's (.dependency-cruiser.cjs), dead code knip's (knip.json).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'frontend/test-artifacts/**', 'backend/.bench/**', 'backend/.vitest/**', 'data/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        // Type-aware: each file is checked with the tsconfig that owns it; files outside every tsconfig (vitest
        // configs, the contracts' specs, which its build leaves out) get a default program.
        projectService: {
          allowDefaultProject: ['*/vitest.config.ts', 'contracts/src/*.spec.ts'],
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 40,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits loses its error (an unhandled rejection ends the process) and its ordering.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Tests read JSON bodies loosely on purpose (the assertions are the check); Kysely migrations take
    // `Kysely<any>` by design (a migration must not depend on today's table types).
    files: ['**/*.spec.ts', 'backend/test/**', 'backend/bench/**', 'test-support/**', 'frontend/e2e/**', 'backend/src/storage/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    rules: {
      'react-hooks/exhaustive-deps': 'error',
      // Resetting local state when a prop changes (a new thread, a new proposal) is done in effects on purpose
      // here; the React Compiler's advice (remount with a key) is a refactor, not a defect fix.
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
);
