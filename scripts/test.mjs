#!/usr/bin/env node
// `npm test`: every check in order (type check, lint, unit tests, server tests against PGlite and a
// throwaway PostgreSQL, build, build tests, end-to-end tests in Chromium, multi-device tests against the
// real server), each run even when an earlier one failed where that still makes sense.
// The last line printed is the summary: `N passed, N failed`.
// On a Node older than 24 (as .ci/run) it installs Node 24 into .tools/node (scripts/node24.mjs) and runs itself again with it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ensureChromium } from './chromium.mjs';
import { ensureNode24, MIN_NODE_MAJOR, NODE_VERSION, nodeMajor } from './node24.mjs';
import { ensurePostgres } from './postgres.mjs';
import { forkLane, mergeReports, runLanes } from './server-lanes.mjs';
import { playwrightFailures, vitestFailures } from './test-report.mjs';

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

/**
 * Runs a command without waiting for it. `keep`: its output is kept, to print once it ends (for a
 * check run beside another, whose output goes to the terminal as it comes).
 */
function runAside(command, args, { env = {}, keep = false } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (keep) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => resolve({ ok: code === 0, seconds: (Date.now() - started) / 1000, output }));
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Prints a check's line and keeps its result for the summary. */
function finish(name, result) {
  results.push({ name, ...result });
  const counts = result.passed + result.failed > 1 ? ` (${result.passed} passed, ${result.failed} failed)` : '';
  console.log(`━━ ${name}: ${result.failed === 0 ? 'ok' : 'FAILED'}${counts} in ${result.seconds.toFixed(1)} s`);
  return result.failed === 0;
}

function step(name, fn) {
  console.log(`\n━━ ${name} ━━`);
  return finish(name, fn());
}

const single = (outcome) => ({ passed: outcome.ok ? 1 : 0, failed: outcome.ok ? 0 : 1, seconds: outcome.seconds });

const vitestArgs = (config, output) => [
  'vitest',
  'run',
  '--config',
  config,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${output}`,
];

/** A Vitest run's counts from its JSON report (one failure more when it failed without a failed case). */
function vitestCounts(outcome, output) {
  const report = readJson(output);
  if (!report) return { passed: 0, failed: 1, seconds: outcome.seconds };
  const failed = report.numFailedTests + (outcome.ok || report.numFailedTests > 0 ? 0 : 1);
  return { passed: report.numPassedTests, failed, seconds: outcome.seconds, failures: vitestFailures(report) };
}

function vitest(config, output) {
  return vitestCounts(run('npx', vitestArgs(config, output)), output);
}

/** A Playwright run's counts from its JSON report. */
function playwrightCounts(outcome, output) {
  const report = readJson(output);
  if (!report?.stats) return { passed: 0, failed: 1, seconds: outcome.seconds };
  const { expected, unexpected, flaky } = report.stats;
  const failed = unexpected + flaky + (outcome.ok || unexpected + flaky > 0 ? 0 : 1);
  return { passed: expected, failed, seconds: outcome.seconds, failures: playwrightFailures(report) };
}

/** Playwright's arguments and environment, or the reason Chromium cannot be had. */
function playwrightRun(args, output) {
  const chromium = ensureChromium();
  if (!chromium.ok) return { error: chromium.message };
  return { args: ['playwright', 'test', ...args], env: { PLAYWRIGHT_JSON_OUTPUT_NAME: output, CHROMIUM_PATH: chromium.path } };
}

function playwright(args, output) {
  const started = Date.now();
  const how = playwrightRun(args, output);
  if (how.error) {
    console.error(how.error);
    return { passed: 0, failed: 1, seconds: (Date.now() - started) / 1000 };
  }
  return playwrightCounts(run('npx', how.args, how.env), output);
}

/** Runs a command with its output kept, to print once it ends (for two checks run side by side). */
const runKept = (command, args) => runAside(command, args, { keep: true });

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
const built = step('Build', () => single(run('npm', ['run', '--silent', 'build'])));
if (built) {
  step('Build tests', () => vitest('vitest.build.config.ts', `${OUT}/build.json`));
  step('End-to-end tests (Chromium)', () => playwright([], `${OUT}/e2e.json`));
} else {
  results.push({ name: 'Build tests and end-to-end tests', passed: 0, failed: 1, seconds: 0 });
  console.log('━━ Build failed: build tests and end-to-end tests were not run.');
}
await serverAndDevices();

/**
 * The server tests, and beside them the multi-device tests (several browser contexts against the
 * real server: each spec starts its own). Each leaves much of the two cores idle: the server tests
 * wait on PGlite's thread, PostgreSQL and server processes, the multi-device cases on live streams
 * and devices coming back online. One after the other they took 659 s + 841 s of stop 69's CI.
 * Side by side, they ask about the two cores and no more: the multi-device tests two spec files at a
 * time, the server tests in lanes (scripts/server-lanes.mjs): lane 1 runs one file at a time from the
 * start; once the multi-device tests end, lane 2 starts and the two take the next file not yet
 * started, so the second core is not left idle while the server tests finish alone (430-455 s of
 * the last CI, 2,744 s in all, ran on one worker). A loaded machine is what makes a multi-device case miss its
 * bounds. The lanes' reports are merged into ${OUT}/server.json (each file's own under
 * ${OUT}/server-files/). Without the multi-device tests (the build failed), the server tests run as
 * one Vitest, two files at a time. The server tests' output is printed once they end, the
 * multi-device tests' as it comes.
 */
async function serverAndDevices() {
  console.log(`\n━━ Server tests (PGlite and PostgreSQL)${built ? ', beside the multi-device tests (Chromium and the server)' : ''} ━━`);
  const output = `${OUT}/server.json`;
  let postgres = true;
  try {
    ensurePostgres();
  } catch (error) {
    console.error(error.message);
    postgres = false;
  }
  let devices;
  if (built) {
    const syncOutput = `${OUT}/e2e-sync.json`;
    const how = playwrightRun(['-c', 'playwright.sync.config.ts'], syncOutput);
    devices = how.error
      ? Promise.resolve({ error: how.error, counts: { passed: 0, failed: 1, seconds: 0 } })
      : runAside('npx', how.args, { env: { SYNC_E2E_WORKERS: process.env.SYNC_E2E_WORKERS ?? '2', ...how.env } }).then((outcome) => ({
          counts: playwrightCounts(outcome, syncOutput),
        }));
  }
  let server;
  if (!postgres)
    server = Promise.resolve({ output: '', counts: { passed: 0, failed: 1, seconds: 0, failures: ['no PostgreSQL to run them on'] } });
  else if (built)
    server = serverLanes(output, devices).catch((error) => ({
      output: `${error?.stack ?? error}\n`,
      counts: { passed: 0, failed: 1, seconds: 0, failures: ['the lanes of server tests did not run'] },
    }));
  else
    server = runAside('npx', vitestArgs('vitest.server.config.ts', output), { keep: true }).then((outcome) => ({
      output: outcome.output,
      counts: vitestCounts(outcome, output),
    }));
  const [serverDone, devicesDone] = await Promise.all([server, devices]);
  if (devicesDone) {
    if (devicesDone.error) console.error(devicesDone.error);
    finish('Multi-device tests (Chromium and the server)', devicesDone.counts);
  }
  console.log('\n━━ Server tests (PGlite and PostgreSQL): their output ━━');
  process.stdout.write(serverDone.output);
  const serverFailures = serverDone.counts.failures ?? [];
  if (serverFailures.length > 0) console.log(`\nFailed:\n${serverFailures.map((failure) => `  ✗ ${failure}`).join('\n')}`);
  finish('Server tests (PGlite and PostgreSQL)', serverDone.counts);
}

/** The server tests in two lanes (scripts/server-lanes.mjs), the second from when `besides` ends. */
async function serverLanes(output, besides) {
  const started = Date.now();
  const lanes = await runLanes({ startLane: forkLane('vitest.server.config.ts', `${OUT}/server-files`), besides });
  const merged = mergeReports(lanes.runs, lanes.unrun, lanes.laneFailures);
  writeFileSync(output, JSON.stringify(merged.report));
  return {
    output: lanes.outputs.map((lane) => `── ${lane.name} ──\n${lane.output}`).join('\n'),
    counts: { passed: merged.passed, failed: merged.failed, seconds: (Date.now() - started) / 1000, failures: merged.failures },
  };
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
if (existsSync(`${OUT}/server.json`)) console.log(`  Server tests' report: ${OUT}/server.json`);
// The failed cases again, here at the end, where a CI log's last lines show them.
const failedCases = results.flatMap((result) => (result.failures ?? []).map((failure) => `${result.name}: ${failure}`));
if (failedCases.length > 0) {
  console.log('Failed cases:');
  for (const failure of failedCases.slice(0, 30)) console.log(`  ✗ ${failure}`);
  if (failedCases.length > 30) console.log(`  … and ${failedCases.length - 30} more (see the reports above)`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
