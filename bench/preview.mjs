// The production build served by `vite preview` on a loopback port, for the browser benchmarks:
// resolves once it answers, and is stopped with kill().
import { spawn } from 'node:child_process';

/** Starts `vite preview` on `port` and resolves with its process once `base` answers. */
export async function startPreview(port, base) {
  const server = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'preview', '--port', String(port), '--strictPort'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(base)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.kill();
  throw new Error(`The preview server did not start on ${base}`);
}
