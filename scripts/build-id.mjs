// The build's identity, shared by the app's and the server's Vite configs: BUILD_ID when set
// (tests build twice), else the short git commit, else "local" (a copy without git).
import { execSync } from 'node:child_process';

/** BUILD_ID, else the short git commit, else "local". */
export function buildId() {
  if (process.env.BUILD_ID) return process.env.BUILD_ID;
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'local';
  }
}
