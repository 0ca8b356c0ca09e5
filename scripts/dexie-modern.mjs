// Dexie's modern build (dist/modern/dexie.mjs: the same source compiled for ES2018+, which Dexie's
// author names as the build for modern tools, dexie/Dexie.js#1582) instead of the one its package
// exports (import-wrapper.mjs over dist/dexie.js, compiled to ES5 with helpers for spread, classes
// and async). Every browser this app runs in has ES2022 (vite.config.ts's target): the forum's chunk
// is 1.7 KB gzip smaller with it (issue 40, item 18). The app, its workers and the unit tests
// (vitest.config.ts, with dexie-react-hooks inlined so it imports the same copy) resolve `dexie`
// here, so one Dexie runs everywhere and the tests run the build the app ships.

import { fileURLToPath } from 'node:url';

/** Vite's alias entry: a bare `dexie` import resolves to the modern build. */
export const DEXIE_MODERN_ALIAS = {
  find: /^dexie$/,
  replacement: fileURLToPath(new URL('../node_modules/dexie/dist/modern/dexie.mjs', import.meta.url)),
};
