import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import structure from './eslint-rules/structure.js';
import refusals from './eslint-rules/refusals.js';

/**
 * The server's layers, lowest first: a file imports from its own layer or below. The exceptions
 * are named here with their reason, and listed in docs/ARCHITECTURE.md.
 */
export const serverLayers = {
  layers: [
    { name: 'base', files: ['src/shared/**', 'src/server/config.ts', 'src/server/clock.ts', 'src/server/logger.ts', 'src/server/lib/**'] },
    { name: 'db', files: ['src/server/db/**'] },
    { name: 'infrastructure', files: ['src/server/http/**', 'src/server/metrics.ts', 'src/server/integrations/**'] },
    { name: 'modules', files: ['src/server/modules/**'] },
    { name: 'app', files: ['src/server/pages/**', 'src/server/api-docs/**', 'src/server/jobs/**', 'src/server/seed/**', 'src/server/app.ts', 'src/server/main.ts', 'src/server/cli.ts', 'src/server/schema.ts'] },
  ],
  allow: [
    {
      from: 'src/server/schema.ts',
      to: 'src/server/modules/*/tables.ts',
      why: 'the one list of every table, for drizzle-kit and the tools',
    },
    { from: 'src/server/app.ts', to: 'src/server/modules/*/routes.ts', why: "the app registers each module's routes" },
    { from: 'src/server/api-docs/**', to: 'src/server/modules/*/operations.ts', why: "the API catalogue gathers each module's operations" },
    {
      from: 'src/server/{modules,pages,api-docs,jobs,seed}/**',
      to: 'src/server/modules/*/tables.ts',
      why: "a table, for the reads that join it (a foreign key, too); only its owner writes it (structure/table-owner)",
    },
    { from: 'src/server/{app,main,cli}.ts', to: 'src/server/modules/*/tables.ts', why: 'the same, for the app and the command line' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'drizzle/', 'data/', '.tmp/', 'test-results/', 'playwright-report/', 'dev-dist/', 'src/shared/i18n/compiled/'] /* generated: scripts/compile-messages.mjs */ },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // Every transaction goes through runTransaction (src/server/db/transaction.ts): it runs a
    // deadlock victim again, once per effect outside the database (decision 023).
    files: ['src/server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='transaction']",
          message: 'Use runTransaction(db, fn) from src/server/db/transaction.ts (retried on deadlock, decision 023).',
        },
      ],
    },
  },
  {
    // The web app has no import cycle (issue 31): the screen registry is passed down by context
    // (lib/screen-registry.ts), never imported by the screens it lists. The TypeScript resolver
    // finds the files the imports name.
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: { ...reactHooks.configs.recommended.rules, 'import-x/no-cycle': 'error' },
  },
  {
    // The server's structure (issue 31, decision 036, docs/ARCHITECTURE.md): imports point down
    // the layers, another module only through its index.ts, and a module writes only its own
    // tables (eslint-rules/structure.js; tests/lint proves both rules fail on a violation).
    files: ['src/server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { structure },
    rules: {
      'structure/layers': ['error', serverLayers],
      'structure/table-owner': 'error',
    },
  },
  {
    // Refusals and validation messages are catalogue keys, never text in the code (decision 051).
    // The configuration's and the command line's messages are for whoever runs the server, in Italian.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'src/server/config.ts', 'src/server/cli.ts'],
    plugins: { refusals },
    rules: { 'refusals/keys': 'error' },
  },
  {
    // Small pieces (issue 31): no function longer than 120 lines in the app's code.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['**/*.test.ts', 'tests/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
