// Types for scripts/chromium.mjs (shared by npm test, the benchmark and the Playwright config).
export declare const CHROMIUM_ARGS: string[];
export declare function findChromium(): string | undefined;
export declare function ensureChromium(): { ok: true; path: string } | { ok: false; message: string };
