// Finds Debian's Chromium for the end-to-end tests and the benchmark; installs it with apt-get
// when it is missing and this is root, otherwise says plainly what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const candidates = () => [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);

export function findChromium() {
  return candidates().find((path) => existsSync(path));
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return { ok: true, path: found };
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log("Chromium is missing: installing Debian's chromium package with apt-get…");
    try {
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
      execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    } catch (error) {
      return { ok: false, message: `Installing Chromium with apt-get failed: ${error.message}` };
    }
    const installed = findChromium();
    if (installed) return { ok: true, path: installed };
  }
  return {
    ok: false,
    message:
      'Chromium was not found at /usr/bin/chromium. Install it, then run npm test again:\n' +
      '  Debian/Ubuntu:  sudo apt-get install -y chromium\n' +
      'or point CHROMIUM_PATH at an installed Chromium or Chrome.',
  };
}
