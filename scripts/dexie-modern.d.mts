/** Vite's alias entry: a bare `dexie` import resolves to the modern build. */
export declare const DEXIE_MODERN_ALIAS: { find: RegExp; replacement: string };
