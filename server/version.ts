// The build's identity for /api/health: set at server build time (vite.server.config.ts), 'dev' otherwise.
export const BUILD_ID: string = process.env.IE_BUILD_ID ?? 'dev';
