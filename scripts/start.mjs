#!/usr/bin/env node
// `npm start`: builds, then serves (`npm run build`, then `npm run serve`). On a Node the product does
// not support (package.json's engines: 22.12 or later, or 24+), both run on Node 24 from .tools/node,
// as `npm test` does (scripts/node24.mjs), and it says so in one line. Only plain Node built-ins here.
import { spawn, spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { ensureNode24, NODE_VERSION, supportedNode } from './node24.mjs';

const env = { ...process.env };
if (!supportedNode()) {
  console.log(
    `Node ${process.version} is not supported (22.12 or later, or 24+): building and serving with Node ${NODE_VERSION}, kept in .tools/node.`,
  );
  let bin;
  try {
    bin = ensureNode24();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  const node = join(bin, 'node');
  // The scripts' `node` (vite, the server) is the first on PATH; npm names the Node it ran on in these two.
  env.PATH = `${bin}${delimiter}${env.PATH ?? ''}`;
  for (const name of ['NODE', 'npm_node_execpath']) if (env[name]) env[name] = node;
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', 'build'], { stdio: 'inherit', env });
if (build.status !== 0) process.exit(build.status ?? 1);
const serve = spawn(npm, ['run', 'serve'], { stdio: 'inherit', env });
// Ctrl-C reaches the server itself (one process group): it finishes what is in flight, and this waits for it.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => serve.kill('SIGTERM'));
serve.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
