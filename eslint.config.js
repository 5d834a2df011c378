// ESLint 9 flat config with typescript-eslint's type-aware rules.
// src/: the whole recommendedTypeChecked set (floating promises, `any` and unsafe `any` use, unused
// names). test/: the same promise and unused-name rules; tests read JSON loosely, so `any` is allowed
// there. bench/ and bin/ are plain JavaScript run by Node: syntax rules only. src/: imports follow
// the layers of docs/design.md (lint/layers.js).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersConfig } from './lint/layers.js';

const unusedVars = ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }];

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // TypeScript checks names itself, with the right globals.
      'no-undef': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': unusedVars,
      // A verb's run() is async by contract even when it has nothing to await.
      '@typescript-eslint/require-await': 'off',
      // Rethrowing what was caught (unknown) is not throwing a non-error.
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // API values are LosslessNumber, string or null: String() of them is the text sent.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  layersConfig,
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Tests match ANSI escapes on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', fetch: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', performance: 'readonly', globalThis: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly', setImmediate: 'readonly', gc: 'readonly' },
    },
    rules: { 'no-unused-vars': unusedVars },
  },
  {
    // bin/newsstats.cjs is CommonJS, as dist/ is (scripts/build.mjs says why).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } },
  },
);
