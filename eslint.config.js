// Lint: TypeScript's recommended rules with type-only imports, the rules of hooks, and the
// one-way import flow of STYLE.md: app → pages → features → components/lib, with src/db below
// everything and React-free. Features never import each other.
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
  { ignores: ['dist', 'dist-*', 'node_modules', 'coverage', 'test-results', 'playwright-report', 'bench/.work', '.test-output'] },
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
  layer('shared', ['app', 'pages', 'features', 'components', 'lib', 'config', 'db', 'sync'], 'src/shared is shared with the server: it imports nothing of the app.'),
  layer('db', ['app', 'pages', 'features', 'components', 'lib', 'config'], 'src/db is the data layer: it must not depend on the UI.'),
  layer('lib', ['app', 'pages', 'features', 'components'], 'src/lib holds UI-free helpers.'),
  layer('components', ['app', 'pages', 'features'], 'Shared components must not depend on features, pages or the app.'),
  layer('features', ['app', 'pages'], 'Features must not import pages or the app.'),
  layer('pages', ['app'], 'Pages must not import the app shell.'),
  ...['auth', 'forum', 'posting', 'profile', 'admin', 'pwa'].map((feature) =>
    layer(
      `features/${feature}`,
      ['auth', 'forum', 'posting', 'profile', 'admin', 'pwa'].filter((other) => other !== feature).map((other) => `features/${other}`),
      'Features do not import each other: compose them in a page or in src/app.',
    ),
  ),
  {
    // Only src/db may touch Dexie or localStorage.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/db/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'dexie', message: 'Use the functions of src/db.' }] }],
      'no-restricted-globals': ['error', { name: 'localStorage', message: 'Only src/db touches localStorage.' }],
      'no-restricted-properties': ['error', { object: 'window', property: 'localStorage', message: 'Only src/db touches localStorage.' }],
    },
  },
);
