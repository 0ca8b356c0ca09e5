// React Router's production build (dist/production: the same code with its development warnings
// switched off, ENABLE_DEV_WARNINGS false) instead of the development build its package exports for
// every condition (remix-run/react-router#12532 and #14753: "intended to be temporary"). The app, its
// workers and the unit tests (vite.config.ts, vitest.config.ts) resolve both of its entries here, so
// one React Router runs everywhere (two copies would hold two router contexts), and the tests run the
// build the app ships. Issue 64, item 2: its warnings' code is off the way from /login to the forum.

import { fileURLToPath } from 'node:url';

const production = (file) => fileURLToPath(new URL(`../node_modules/react-router/dist/production/${file}`, import.meta.url));

/** Vite's alias entries: `react-router` and `react-router/dom` (which react-router-dom re-exports) resolve to the production build. */
export const REACT_ROUTER_PRODUCTION_ALIASES = [
  { find: /^react-router$/, replacement: production('index.mjs') },
  { find: /^react-router\/dom$/, replacement: production('dom-export.mjs') },
];
