import { execSync } from 'node:child_process';
import { defineConfig } from 'vite';

// The server's build: server/server.ts (and the admin password tool) bundled with src/shared into
// dist-server/ for Node 20; every npm dependency stays external (node_modules at run time).
function buildId(): string {
  if (process.env.BUILD_ID) return process.env.BUILD_ID;
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'local';
  }
}

export default defineConfig({
  publicDir: false,
  define: { 'process.env.IE_BUILD_ID': JSON.stringify(buildId()) },
  build: {
    ssr: true,
    target: 'node20',
    outDir: process.env.SERVER_OUT_DIR ?? 'dist-server',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      input: { server: 'server/server.ts', 'admin-password': 'server/admin-password.ts' },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
