// The production server as a child process for the benchmarks (bench/sync.mjs, bench/moderation.mjs):
// on 127.0.0.1 only, an empty data folder, the built app; resolves once /api/health answers.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { noteMailFolder, openLimits, serveFlags, Session } from './server/harness.mjs';

/**
 * Starts dist-server/server.js (or `script`, serving `distDir`: an older build's copy, say) on
 * 127.0.0.1:`port` as `npm start` does; throws when it does not come up.
 */
export async function startBenchServer({ port, dataDir, adminPassword, script = 'dist-server/server.js', distDir = 'dist' }) {
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...serveFlags(), resolve(script)], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: adminPassword,
      DIST_DIR: resolve(distDir),
      LOG_LEVEL: 'warn',
    },
    stdio: 'inherit',
  });
  for (let i = 0; i < 600; i += 1) {
    const up = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) {
      noteMailFolder(base, dataDir);
      await openLimits(base, adminPassword); // a benchmark's members write far more than a person may
      return child;
    }
    if (child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  child.kill('SIGKILL');
  throw new Error('The server did not start (run npm run build first).');
}

/**
 * Makes the member's account on the server at `base` (started above): Create Account, then the link
 * it emailed (issue 59). Resolves to the member's session cookie ("name=value").
 */
export async function makeMember(base, { email, password, name }) {
  const session = new Session(base);
  await session.signIn(email, password, '127.0.0.1', name);
  return session.cookie;
}
