// Lint: TypeScript's recommended rules with type-only imports, the rules of hooks, and the
// one-way import flow of docs/architecture.md: app → pages → features → components/lib, with src/db below
// everything and React-free. Features never import each other.
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NO_DEXIE = [{ name: 'dexie', message: 'Use the functions of src/db.' }];
const ONE_SPINNER = { name: 'react-bootstrap/Spinner', message: 'Use components/spinner.tsx: one spinner.' };
// What ships in the first download (the shell, the home page, the forum list) is plain
// Bootstrap markup; react-bootstrap components are for screens and dialogs loaded later.
const FIRST_DOWNLOAD = [
  'src/main.tsx',
  'src/app/**',
  'src/components/layouts/**',
  'src/components/*.tsx',
  'src/pages/home.tsx',
  'src/features/forum/**',
  'src/features/auth/*.tsx',
  'src/features/pwa/*.tsx',
];
const LOADED_LATER = ['src/components/task-progress.tsx', 'src/features/auth/login-form.tsx', 'src/features/pwa/ios-install-help.tsx'];

const UI = ['app', 'pages', 'features', 'components', 'lib', 'config'];

// A later block replaces an earlier one's zones for the same files, so a sub-layer repeats its parent's.
const layer = (from, forbidden, message) => ({
  files: [`src/${from}/**/*.{ts,tsx}`],
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      { zones: forbidden.map((target) => ({ target: `./src/${from}`, from: `./src/${target}`, message })) },
    ],
  },
});

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-*',
      'node_modules',
      'coverage',
      'test-results',
      'playwright-report',
      'bench/.work',
      '.test-output',
      'tests/unit/lint/fixtures',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
      // Without these, import-x parses no TypeScript file it follows, and no-cycle sees no cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'log'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  layer(
    'shared',
    ['app', 'pages', 'features', 'components', 'lib', 'config', 'db', 'sync'],
    'src/shared is shared with the server: it imports nothing of the app.',
  ),
  layer(
    'db',
    ['app', 'pages', 'features', 'components', 'lib', 'config', 'sync'],
    'src/db is the data layer: it must not depend on the UI or on src/sync.',
  ),
  layer('sync', UI, 'src/sync is React-free: the UI reads its status store, never the other way round.'),
  layer('lib', ['app', 'pages', 'features', 'components'], 'src/lib holds UI-free helpers.'),
  layer('components', ['app', 'pages', 'features'], 'Shared components must not depend on features, pages or the app.'),
  layer('features', ['app', 'pages'], 'Features must not import pages or the app.'),
  layer('pages', ['app'], 'Pages must not import the app shell.'),
  ...['auth', 'forum', 'posting', 'profile', 'admin', 'pwa'].map((feature) =>
    layer(
      `features/${feature}`,
      [
        'app',
        'pages',
        ...['auth', 'forum', 'posting', 'profile', 'admin', 'pwa'].filter((other) => other !== feature).map((other) => `features/${other}`),
      ],
      'Features do not import each other: compose them in a page or in src/app.',
    ),
  ),
  // Inside src/db the groups depend one way: core ← accounts ← posts ← mirror, search on core only.
  layer(
    'db/core',
    [...UI, ...['db/accounts', 'db/posts', 'db/search', 'db/mirror', 'db/sync', 'sync']],
    'db/core is the base of src/db: it imports no other group.',
  ),
  layer('db/accounts', [...UI, ...['db/posts', 'db/search', 'db/mirror', 'db/sync', 'sync']], 'db/accounts needs only db/core.'),
  layer(
    'db/posts',
    [...UI, ...['db/search', 'db/mirror', 'sync']],
    'db/posts needs only db/core, db/accounts (its guards) and db/sync (the outbox).',
  ),
  layer('db/search', [...UI, ...['db/accounts', 'db/posts', 'db/mirror', 'db/sync', 'sync']], 'db/search needs only db/core.'),
  layer(
    'db/sync',
    [...UI, ...['db/posts', 'db/search', 'db/mirror', 'sync']],
    'db/sync (outbox, pull, re-keying) needs only db/core and db/accounts; db/posts and db/mirror call it.',
  ),
  layer('db/mirror', [...UI, ...['db/accounts', 'db/search']], 'db/mirror needs only db/core and db/posts.'),
  {
    // Only src/db may touch Dexie or localStorage; one spinner (components/spinner.tsx).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/db/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...NO_DEXIE, ONE_SPINNER] }],
      'no-restricted-globals': ['error', { name: 'localStorage', message: 'Only src/db touches localStorage.' }],
      'no-restricted-properties': ['error', { object: 'window', property: 'localStorage', message: 'Only src/db touches localStorage.' }],
    },
  },
  {
    files: FIRST_DOWNLOAD,
    ignores: LOADED_LATER,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...NO_DEXIE, ONE_SPINNER],
          patterns: [
            {
              group: ['react-bootstrap', 'react-bootstrap/*'],
              message: 'First-download code uses plain Bootstrap markup (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
);
