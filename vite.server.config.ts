import { defineConfig } from 'vite';
import { buildId } from './scripts/build-id.mjs';

// The server's build: server/server.ts (and the admin password tool) bundled with src/shared into
// dist-server/ for Node 22 and later; every npm dependency stays external (node_modules at run time).
export default defineConfig({
  publicDir: false,
  define: { 'process.env.IE_BUILD_ID': JSON.stringify(buildId()) },
  build: {
    ssr: true,
    target: 'node22',
    outDir: process.env.SERVER_OUT_DIR ?? 'dist-server',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      input: { server: 'server/server.ts', 'admin-password': 'server/admin-password.ts', 'create-database': 'server/create-database.ts' },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
