/// <reference types="vite/client" />

/** The package version, from package.json. */
declare const __APP_VERSION__: string;
/** The build's identity (git commit, or BUILD_ID when set). */
declare const __BUILD_ID__: string;
