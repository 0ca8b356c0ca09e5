import { existsSync, readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import { buildId } from './scripts/build-id.mjs';
import { installedPgliteVersion, READY_MADE_NAME, readyMadeSource } from './server/db/storage/ready-made.ts';

/**
 * Puts the ready-made empty database of the installed PGlite beside the server (server/db/ready-made.ts).
 * None for this PGlite: the build says so, and a first start runs initdb in a child process instead.
 */
function readyMadeDatabase(): Plugin {
  return {
    name: 'ready-made-database',
    generateBundle() {
      const version = installedPgliteVersion(import.meta.url);
      const source = readyMadeSource(version);
      if (!existsSync(source)) {
        this.warn(`No ready-made database for PGlite ${version} (${source}): run npm run db:ready-made. A first start will run initdb.`);
        return;
      }
      this.emitFile({ type: 'asset', fileName: READY_MADE_NAME, source: readFileSync(source) });
    },
  };
}

// The server's build: server/server.ts (and the admin password tool) bundled with src/shared into
// dist-server/ for Node 22 and later; every npm dependency stays external (node_modules at run time).
export default defineConfig({
  publicDir: false,
  define: { 'process.env.IE_BUILD_ID': JSON.stringify(buildId()) },
  plugins: [readyMadeDatabase()],
  build: {
    ssr: true,
    target: 'node22',
    outDir: process.env.SERVER_OUT_DIR ?? 'dist-server',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      input: {
        server: 'server/server.ts',
        'admin-password': 'server/admin-password.ts',
        'create-database': 'server/create-database.ts',
        backup: 'server/backup.ts',
        'pglite-worker': 'server/db/storage/pglite-worker.ts',
      },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
