// Lint: TypeScript's recommended rules with type-only imports, the rules of hooks, and the
// one-way import flow of docs/architecture.md: app → pages → features → components, hooks, boot →
// lib, config → src/sync → src/db → src/shared, each layer React-free from src/lib down. Features
// never import each other; the groups of src/db depend one way; server/ imports only src/shared.
// The folders are read from the disk, so a new one is fenced by default (it imports only what its
// entry below allows, and no layer imports it until its entry says so).
import { readdirSync } from 'node:fs';
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
const LOADED_LATER = [
  'src/components/task-progress.tsx',
  // The flag dialogs' reasons (a post's or reply's, a message's): loaded with those dialogs.
  'src/components/flag-reason-fields.tsx',
  'src/features/auth/login-form.tsx',
  'src/features/pwa/ios-install-help.tsx',
];

const entries = (folder) => readdirSync(new URL(`./${folder}/`, import.meta.url), { withFileTypes: true });
/** The folders in `src/<parent>` (or `src` itself), as found on the disk. */
const foldersIn = (parent) =>
  entries(parent ? `src/${parent}` : 'src')
    .filter((entry) => entry.isDirectory())
    .map((entry) => (parent ? `${parent}/${entry.name}` : entry.name));

// Each layer of src and what it may import (besides itself); a folder not named here imports only src/shared.
const LAYERS = {
  shared: [],
  db: ['shared'],
  sync: ['db', 'shared'],
  config: [],
  lib: ['shared', 'config'],
  hooks: ['lib', 'config', 'sync', 'db', 'shared'],
  boot: ['lib', 'db', 'shared'],
  components: ['hooks', 'boot', 'lib', 'config', 'sync', 'db', 'shared'],
  features: ['components', 'hooks', 'boot', 'lib', 'config', 'sync', 'db', 'shared'],
  pages: ['features', 'components', 'hooks', 'boot', 'lib', 'config', 'sync', 'db', 'shared'],
  app: ['pages', 'features', 'components', 'hooks', 'boot', 'lib', 'config', 'sync', 'db', 'shared'],
};
const WHY = {
  shared: 'src/shared is shared with the server: it imports nothing of the app.',
  db: 'src/db is the data layer: it imports only src/shared (no UI, no src/sync).',
  sync: 'src/sync is React-free: it imports src/db and src/shared; the UI reads its status store, never the other way round.',
  config: 'src/config holds plain settings: it imports nothing.',
  lib: 'src/lib holds UI-free helpers: no React, no hooks, no data layer.',
  hooks: 'src/hooks holds React hooks over lib, sync and db: no components, features, pages or app.',
  boot: 'src/boot (the forum snapshot outside src/db) imports only lib, db and shared.',
  components: 'Shared components must not depend on features, pages or the app.',
  features: 'Features must not import pages or the app.',
  pages: 'Pages must not import the app shell.',
  app: 'src/app may import every layer.',
};
const TOP = foldersIn('');
const forbiddenFor = (folder) => TOP.filter((other) => other !== folder && !(LAYERS[folder] ?? ['shared']).includes(other));

// Inside src/db the groups are the domains (posts, replies, likes, flags, notifications, saved posts,
// preferences, members, moderation, search, insights), the plumbing (storage: the Dexie schema, errors,
// change numbers; ops: the device's side of every operation; sync: pulls and push answers) and the
// compatibility copy (mirror). Each may import only the groups listed here: storage nothing, search
// and insights little, sync and mirror sit above the domains. ops runs every operation through the
// domains' row writers, and the domains run their operations through ops: those groups import each
// other, and import-x/no-cycle keeps their files from ever forming a cycle. A group not named here
// needs only db/storage. Every group may import the top-level names and shapes (contracts.ts,
// types.ts); no other top-level file of src/db (startup.ts starts the groups).
const DB_GROUPS = {
  storage: [],
  members: ['storage', 'ops', 'preferences'],
  ops: ['storage', 'members', 'replies', 'flags', 'likes', 'notifications', 'preferences'],
  posts: ['storage', 'members', 'ops', 'replies', 'groups'],
  replies: ['storage', 'members', 'ops', 'posts'],
  likes: ['storage', 'ops'],
  polls: ['storage', 'ops'],
  flags: ['storage', 'members', 'ops', 'posts', 'replies'],
  notifications: ['storage', 'members', 'ops'],
  saved: ['storage', 'members', 'ops'],
  follows: ['storage', 'members', 'ops'],
  preferences: ['storage', 'members', 'ops'],
  messages: ['storage', 'members', 'ops'],
  moderation: ['storage', 'members', 'ops', 'posts'],
  search: ['storage'],
  insights: ['storage', 'likes'],
  sync: [
    'storage',
    'members',
    'ops',
    'posts',
    'replies',
    'flags',
    'notifications',
    'saved',
    'follows',
    'preferences',
    'groups',
    'messages',
  ],
  mirror: ['storage', 'posts', 'sync'],
  groups: ['storage', 'members', 'ops'],
};
const DB_BASE = ['contracts.ts', 'types.ts'];
const DB_TOP_FILES = entries('src/db')
  .filter((entry) => entry.isFile() && !DB_BASE.includes(entry.name))
  .map((entry) => `db/${entry.name}`);
const dbGroupMessage = (group) =>
  `db/${group} imports only ${['contracts.ts', 'types.ts', ...(DB_GROUPS[group] ?? ['storage']).map((other) => `db/${other}`)].join(', ')} of src/db (docs/architecture.md).`;

const FEATURES = foldersIn('features');
const DB_FOLDERS = foldersIn('db');

// One block per folder, with every zone that applies to it: a later block replaces an earlier
// one's zones for the same files, so a sub-folder's block repeats its parent's.
const fence = (files, zones) => ({
  files,
  rules: { 'import-x/no-restricted-paths': ['error', { zones: zones.map((zone) => ({ ...zone, from: `./src/${zone.from}` })) }] },
});
const layerZones = (folder) =>
  forbiddenFor(folder).map((from) => ({ target: `./src/${folder}`, from, message: WHY[folder] ?? WHY.shared }));
const LAYER_FENCES = TOP.map((folder) => fence([`src/${folder}/**/*.{ts,tsx}`], layerZones(folder)));
const FEATURE_FENCES = FEATURES.map((feature) =>
  fence(
    [`src/${feature}/**/*.{ts,tsx}`],
    [
      ...layerZones('features'),
      ...FEATURES.filter((other) => other !== feature).map((other) => ({
        target: `./src/${feature}`,
        from: other,
        message: `${feature} must not import ${other}: features do not import each other; compose them in a page or in src/app.`,
      })),
    ],
  ),
);
const DB_FENCES = [
  // contracts.ts and types.ts are the base of every group: they import no group.
  fence(
    DB_BASE.map((file) => `src/db/${file}`),
    [
      ...layerZones('db'),
      ...[...DB_FOLDERS, ...DB_TOP_FILES].map((from) => ({
        target: './src/db',
        from,
        message: 'contracts.ts and types.ts import no group of src/db.',
      })),
    ],
  ),
  ...DB_FOLDERS.map((folder) => {
    const group = folder.slice('db/'.length);
    const allowed = (DB_GROUPS[group] ?? ['storage']).map((other) => `db/${other}`);
    return fence(
      [`src/${folder}/**/*.{ts,tsx}`],
      [
        ...layerZones('db'),
        ...[...DB_FOLDERS, ...DB_TOP_FILES]
          .filter((from) => from !== folder && !allowed.includes(from))
          .map((from) => ({ target: `./src/${folder}`, from, message: dbGroupMessage(group) })),
      ],
    );
  }),
];
// The boot script (bundled on its own, run before the app) and the service worker import names
// only: they must stay small, and they run where the app's code does not.
const NAMES = ['./db/contracts.ts', './boot/forum-snapshot-names.ts', './boot/home-prerender-names.ts', './boot/first-paint.ts'];
const NAMES_ONLY_FENCES = [
  fence(
    ['src/boot/forum-snapshot.ts'],
    [
      {
        target: './src/boot/forum-snapshot.ts',
        from: '',
        except: [...NAMES, './boot/home-prerender-menu.ts', './boot/module-preloads.ts'],
        message:
          'The boot script imports only names (src/db/contracts.ts, src/boot/forum-snapshot-names.ts, src/boot/home-prerender-names.ts), src/boot/first-paint.ts, src/boot/home-prerender-menu.ts and src/boot/module-preloads.ts: it must stay tiny.',
      },
    ],
  ),
  fence(
    ['src/sw/**/*.ts'],
    [
      {
        target: './src/sw',
        from: '',
        except: ['./sw', ...NAMES, './shared/app-shell.ts'],
        message:
          'The service worker imports only names (src/db/contracts.ts, src/boot/forum-snapshot-names.ts) and the shell it serves (src/shared/app-shell.ts).',
      },
    ],
  ),
];

// React (and anything built on it) stays out of the React-free layers; so does JSX.
const NO_REACT = {
  regex: '(^|[/@-])react($|[/-])',
  message: 'This layer is React-free (docs/architecture.md): React hooks go in src/hooks or beside their feature.',
};
const REACT_FREE = ['src/lib/**', 'src/sync/**', 'src/shared/**', 'src/boot/forum-snapshot.ts', 'src/boot/forum-snapshot-names.ts'];
const NO_JSX = { selector: 'JSXElement, JSXFragment', message: 'This layer is React-free (docs/architecture.md).' };

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
      'backups',
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
  ...LAYER_FENCES,
  ...FEATURE_FENCES,
  ...DB_FENCES,
  ...NAMES_ONLY_FENCES,
  {
    // server/ runs in Node on its own: of the app's code it may share only src/shared.
    files: ['server/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server',
              from: './src',
              except: ['./shared'],
              message: 'server/ imports only src/shared: rules, codes and wire shapes the device shares live there.',
            },
          ],
        },
      ],
    },
  },
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
  {
    files: REACT_FREE,
    rules: {
      'no-restricted-imports': ['error', { paths: [...NO_DEXIE, ONE_SPINNER], patterns: [NO_REACT] }],
      'no-restricted-syntax': ['error', NO_JSX],
    },
  },
  {
    files: ['src/db/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_REACT] }],
      'no-restricted-syntax': ['error', NO_JSX],
    },
  },
);
