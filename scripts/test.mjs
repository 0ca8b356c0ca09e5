#!/usr/bin/env node
// `npm test`: every check in order (type check, lint, unit tests, server tests against PGlite and a
// throwaway PostgreSQL, build, build tests, end-to-end tests in Chromium, multi-device tests against the
// real server), each run even when an earlier one failed where that still makes sense.
// The last line printed is the summary: `N passed, N failed`.
// On a Node older than 24 (as .ci/run) it installs Node 24 into .tools/node (scripts/node24.mjs) and runs itself again with it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ensureChromium } from './chromium.mjs';
import { ensureNode24, MIN_NODE_MAJOR, NODE_VERSION, nodeMajor } from './node24.mjs';
import { ensurePostgres } from './postgres.mjs';

if (nodeMajor() < MIN_NODE_MAJOR) {
  console.log(`Node ${process.version} is older than ${MIN_NODE_MAJOR}: running the tests with Node ${NODE_VERSION}, kept in .tools/node.`);
  let bin;
  try {
    bin = ensureNode24();
  } catch (error) {
    console.error(error.message);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  const node = join(bin, 'node');
  const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  // npm names the Node it ran on in these two: name the new one (npm, npx and vitest also find it first on PATH).
  for (const name of ['NODE', 'npm_node_execpath']) if (env[name]) env[name] = node;
  const again = spawnSync(node, process.argv.slice(1), { stdio: 'inherit', env });
  process.exit(again.status ?? 1);
}
console.log(`Node ${process.version} (${process.execPath})`);

const OUT = '.test-output';
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

const results = [];

function run(command, args, env = {}) {
  const started = Date.now();
  const child = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return { ok: child.status === 0, seconds: (Date.now() - started) / 1000 };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function step(name, fn) {
  console.log(`\n━━ ${name} ━━`);
  const result = fn();
  results.push({ name, ...result });
  const counts = result.passed + result.failed > 1 ? ` (${result.passed} passed, ${result.failed} failed)` : '';
  console.log(`━━ ${name}: ${result.failed === 0 ? 'ok' : 'FAILED'}${counts} in ${result.seconds.toFixed(1)} s`);
  return result.failed === 0;
}

const single = (outcome) => ({ passed: outcome.ok ? 1 : 0, failed: outcome.ok ? 0 : 1, seconds: outcome.seconds });

function vitest(config, output) {
  const outcome = run('npx', ['vitest', 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`]);
  const report = readJson(output);
  if (!report) return { passed: 0, failed: 1, seconds: outcome.seconds };
  const failed = report.numFailedTests + (outcome.ok || report.numFailedTests > 0 ? 0 : 1);
  return { passed: report.numPassedTests, failed, seconds: outcome.seconds };
}

function playwright(args, output) {
  const started = Date.now();
  const chromium = ensureChromium();
  if (!chromium.ok) {
    console.error(chromium.message);
    return { passed: 0, failed: 1, seconds: (Date.now() - started) / 1000 };
  }
  const outcome = run('npx', ['playwright', 'test', ...args], { PLAYWRIGHT_JSON_OUTPUT_NAME: output, CHROMIUM_PATH: chromium.path });
  const report = readJson(output);
  if (!report?.stats) return { passed: 0, failed: 1, seconds: outcome.seconds };
  const { expected, unexpected, flaky } = report.stats;
  const failed = unexpected + flaky + (outcome.ok || unexpected + flaky > 0 ? 0 : 1);
  return { passed: expected, failed, seconds: outcome.seconds };
}

/** Runs a command with its output kept, to print once it ends (for two checks run side by side). */
function runKept(command, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { env: process.env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => resolve({ ok: code === 0, seconds: (Date.now() - started) / 1000, output }));
  });
}

// The type check and lint run side by side (each is mostly one thread; together they take the
// longer one's time, about 40 s, instead of 75 s); each one's output is printed under its own step.
const [typecheck, lint] = await Promise.all([
  runKept('npm', ['run', '--silent', 'typecheck']),
  runKept('npm', ['run', '--silent', 'lint']),
]);
for (const [name, outcome] of [
  ['Type check', typecheck],
  ['Lint', lint],
])
  step(name, () => {
    process.stdout.write(outcome.output);
    return single(outcome);
  });
step('Unit tests', () => vitest('vitest.config.ts', `${OUT}/unit.json`));
step('Server tests (PGlite and PostgreSQL)', () => {
  try {
    ensurePostgres();
  } catch (error) {
    console.error(error.message);
    return { passed: 0, failed: 1, seconds: 0 };
  }
  return vitest('vitest.server.config.ts', `${OUT}/server.json`);
});
const built = step('Build', () => single(run('npm', ['run', '--silent', 'build'])));
if (built) {
  step('Build tests', () => vitest('vitest.build.config.ts', `${OUT}/build.json`));
  step('End-to-end tests (Chromium)', () => playwright([], `${OUT}/e2e.json`));
  // Several devices (browser contexts) against the real server: each spec starts its own.
  step('Multi-device tests (Chromium and the server)', () => playwright(['-c', 'playwright.sync.config.ts'], `${OUT}/e2e-sync.json`));
} else {
  results.push({ name: 'Build tests and end-to-end tests', passed: 0, failed: 1, seconds: 0 });
  console.log('━━ Build failed: build tests and end-to-end tests were not run.');
}

const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
console.log('\nSummary');
for (const result of results) {
  console.log(
    `  ${result.failed === 0 ? '✓' : '✗'} ${result.name}: ${result.passed} passed, ${result.failed} failed (${result.seconds.toFixed(1)} s)`,
  );
}
if (existsSync(`${OUT}/e2e.json`)) console.log(`  End-to-end report: ${OUT}/e2e.json`);
if (existsSync(`${OUT}/e2e-sync.json`)) console.log(`  Multi-device report: ${OUT}/e2e-sync.json`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
