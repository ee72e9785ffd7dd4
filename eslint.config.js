import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import structure from './eslint-rules/structure.js';
import testDays from './eslint-rules/test-days.js';
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

/**
 * The web app's layers, highest first (issue 46): a file imports from its own layer or below;
 * a feature's inside only from that feature, another feature only through its face. The
 * arrows that run up are named in `allow`, with their reason, and in docs/ARCHITECTURE.md.
 */
export const webLayers = {
  layers: [
    { name: 'boot', files: ['src/web/boot/**', 'src/web/sw.ts'] },
    { name: 'app', files: ['src/web/app.tsx'] },
    { name: 'routes', files: ['src/web/routes.tsx', 'src/web/screens.tsx'] },
    { name: 'pwa', files: ['src/web/pwa/**'] },
    { name: 'features', files: ['src/web/features/**'] },
    { name: 'components', files: ['src/web/components/**'] },
    { name: 'offline', files: ['src/web/offline/**'] },
    { name: 'lib', files: ['src/web/lib/**'] },
    { name: 'shared', files: ['src/shared/**'] },
  ],
  /** A feature's face: its index.ts, and its screens and panels, each a chunk loaded on demand. */
  featureFace: ['index.ts', '*-page.tsx', '*-screens.ts', '*-panels.tsx'],
  allow: [
    {
      from: 'src/web/lib/session.ts',
      to: 'src/web/offline/session-fallback.ts',
      why: "a lazy import(), only when the network fails: the device's session stays out of the login screen's first download",
    },
  ],
};

/**
 * Who writes a table (structure/table-owner): its owner only, from anywhere in src/server. The
 * exceptions, each with its reason (also listed in docs/ARCHITECTURE.md).
 */
export const tableWriters = {
  exceptions: [
    {
      files: 'src/server/seed/seed-history.ts',
      tables: ['interventi', 'attese', 'chiusure', 'manutenzioni'],
      why:
        "the demo's past, written once into an empty database in bulk and dated in the past; their owners' functions are a person's or an admin's acts (checks, audit, notices). People, codes, bookings and payments go through their owners",
    },
  ],
};

/** `webLayers` as eslint-plugin-boundaries' settings and `boundaries/dependencies` options. */
export function webBoundaries({ layers, featureFace, allow }, rootPath = import.meta.dirname) {
  const below = (i) => layers.slice(i).map((l) => l.name).filter((name) => name !== 'features');
  const face = { element: { type: 'feature', fileInternalPath: featureFace } };
  return {
    settings: {
      'boundaries/root-path': rootPath,
      'boundaries/elements': [{ type: 'feature', pattern: 'src/web/features/*', capture: ['feature'], partialMatch: false }],
      'boundaries/files': layers.map((l) => ({ category: l.name, pattern: l.files })),
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      'import/resolver': { typescript: { project: `${rootPath}/tsconfig.json` } },
    },
    options: {
      default: 'disallow',
      message: '{{from.file.path}} ({{from.file.categories}}) may not import {{to.file.path}}: a higher layer, or inside another feature (eslint.config.js webLayers)',
      policies: [
        ...layers.map((l, i) => ({
          from: { file: { categories: l.name } },
          allow: [{ to: { file: { categories: below(i) } } }, ...(i <= layers.findIndex((x) => x.name === 'features') ? [{ to: face }] : [])],
        })),
        ...allow.map((a) => ({ from: { file: { path: a.from } }, allow: { to: { file: { path: a.to } }, dependency: { nodeKind: 'dynamic-import' } } })),
      ],
    },
  };
}
const web = webBoundaries(webLayers);

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
    // The web app's layers and the features' faces (webLayers above; tests/lint/web-layers.test.ts).
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { boundaries },
    settings: web.settings,
    rules: { 'boundaries/dependencies': ['error', web.options], 'boundaries/no-unknown-files': 'error' },
  },
  {
    // The server's structure (issue 31, decision 036, docs/ARCHITECTURE.md): imports point down
    // the layers, another module only through its index.ts, and only a table's owner writes it
    // (eslint-rules/structure.js; tests/lint proves both rules fail on a violation).
    files: ['src/server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { structure },
    rules: {
      'structure/layers': ['error', serverLayers],
      'structure/table-owner': ['error', tableWriters],
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
  {
    // Tests that hold on any date (issue 46): a day to book comes from tests/helpers/days.ts, never
    // from an offset of today (eslint-rules/test-days.js; tests/lint/test-days-rule.test.ts).
    files: ['tests/**/*.ts'],
    ignores: ['tests/helpers/days.ts', 'tests/helpers/days.test.ts'],
    plugins: { 'test-days': testDays },
    rules: { 'test-days/no-day-offset': 'error' },
  },
);
