// The names the forum snapshot's pieces share, each written once: the boot script
// (forum-snapshot.ts), the app's side (forum-snapshot-app.ts), the service worker (which puts the
// template in the page) and the build (vite.config.ts, which hands the boot script the entry).
// The stored names (the cookie, the cache and its URL) outlive a release: they are in
// src/db/contracts.ts. `snapshot-on` is also a class in src/styles/main.scss.
// Constants only: the boot script inlines what it uses and must stay tiny.

/** The inert `<template>` the service worker puts before `#root`, with the snapshot's token and stylesheet. */
export const SNAPSHOT_TEMPLATE_ID = 'forum-snapshot-template';
export const SNAPSHOT_TEMPLATE_TOKEN = 'data-token';
export const SNAPSHOT_TEMPLATE_CSS = 'data-css';
/** The screen's own stylesheets the snapshot needs (space-separated), which the service worker links in the head. */
export const SNAPSHOT_TEMPLATE_STYLES = 'data-styles';

/** The painted snapshot's element, until the live page takes over. */
export const SNAPSHOT_VIEW_ID = 'forum-snapshot';

/** The painted snapshot's attribute naming the path it shows (another path's screen takes it away). */
export const SNAPSHOT_PATH_ATTRIBUTE = 'data-path';

/** The class on `<html>` while the snapshot is painted (it hides `#root`). */
export const SNAPSHOT_ON_CLASS = 'snapshot-on';

/** Inline styles travel as this data attribute (the CSP blocks style attributes in parsed markup). */
export const SNAPSHOT_STYLE_ATTRIBUTE = 'data-snapshot-style';

/** The boot script's attribute that names the app's entry module (set by the build). */
export const BOOT_ENTRY_ATTRIBUTE = 'data-entry';

/** The snapshot never outstays this, whatever happens to the app. */
export const SNAPSHOT_MAX_MS = 10_000;

declare global {
  interface Window {
    /** Set once the live forum (or any other screen) took over; the boot script then paints nothing. */
    __snapshotDone?: boolean;
  }
}
