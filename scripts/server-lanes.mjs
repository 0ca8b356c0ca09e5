// The server tests in lanes (issue 64, item 6), for `npm test` (scripts/test.mjs): the stage runs
// beside the multi-device tests, which take about one core of the two. Lane 1 runs the server test
// files one at a time from the start; once the multi-device tests end, lane 2 starts and both take
// the next file not yet started from one queue, so neither core sits idle until the last file ends.
// A lane is one long-lived Vitest (scripts/server-lane.mjs, Vitest's own API): its global setup
// (the server bundle, a throwaway PostgreSQL, the PGlite dumps) runs once, not once a file.
// Each file's JSON report is merged into one, in Vitest's JSON report's shape, so the counts and the
// failed cases are those one Vitest run over every file would give.
import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { vitestFailures } from './test-report.mjs';

const LANE_SCRIPT = new URL('./server-lane.mjs', import.meta.url);

const COUNTS = [
  'numTotalTestSuites',
  'numPassedTestSuites',
  'numFailedTestSuites',
  'numPendingTestSuites',
  'numTotalTests',
  'numPassedTests',
  'numFailedTests',
  'numPendingTests',
  'numTodoTests',
];

/**
 * One report from the runs of single files: `runs` are `{ file, report, ok }` (`report`: the file's
 * Vitest JSON report, or null when it was not written; `ok`: Vitest found nothing wrong with the run),
 * `unrun` the files no lane ran, `laneFailures` what went wrong in a lane outside any file.
 * A run that failed without a failed case (a file that did not load, an error outside the cases, a
 * lane that died in it) counts one failure, as scripts/test.mjs counts a whole Vitest run; so does
 * each file not run and each lane failure. `failures` names each, a failed case as `file > name: its error's first line`.
 */
export function mergeReports(runs, unrun = [], laneFailures = [], root = process.cwd()) {
  const report = Object.fromEntries(COUNTS.map((key) => [key, 0]));
  report.startTime = Math.min(...runs.map((run) => run.report?.startTime ?? Infinity));
  if (!Number.isFinite(report.startTime)) report.startTime = Date.now();
  report.success = true;
  report.testResults = [];
  const failures = [];
  let failed = 0;
  for (const { file, report: one, ok } of runs) {
    const name = relative(root, file);
    for (const key of COUNTS) report[key] += one?.[key] ?? 0;
    report.testResults.push(...(one?.testResults ?? []));
    failures.push(...vitestFailures(one, root));
    failed += one?.numFailedTests ?? 0;
    if (!ok || !one || !one.success) report.success = false;
    if ((!ok || !one) && (one?.numFailedTests ?? 0) === 0) {
      failed += 1;
      failures.push(`${name}: ${one ? 'failed outside its cases (its output says how)' : 'no report (its lane ended in it)'}`);
    }
  }
  for (const file of unrun) {
    failed += 1;
    failures.push(`${relative(root, file)}: not run (every lane ended before it)`);
  }
  for (const failure of laneFailures) {
    failed += 1;
    failures.push(failure);
  }
  if (failed > 0) report.success = false;
  return { report, passed: report.numPassedTests, failed, failures };
}

/** The environment variable that hands lane 1's global setup to lane 2 (tests/server/support/global-setup.ts). */
export const SHARED_SETUP = 'SERVER_TEST_SETUP';

/**
 * Runs the files of lane 1's queue in lanes and resolves to `{ runs, unrun, laneFailures, outputs }`.
 * `startLane(name, env)` starts a lane: `{ files: Promise<string[]>, run(file): Promise<{ report,
 * ok, died, provided }>, close(): Promise<{ output, code }> }` (`files`: every test file, in the order
 * to run; after `died` the lane takes no more; `provided`: what its global setup provided). Lane 1
 * starts at once; lane 2 once `besides` has settled (or lane 1 has died), not before lane 1 has
 * finished a file, and not when the queue is already empty. Lane 2 uses lane 1's global setup (its
 * PostgreSQL, dumps and server bundle: a second build of the bundle under a running server removed
 * chunks it was loading), so lane 1 is closed after lane 2; when lane 1 has died, lane 2 makes its own.
 */
export async function runLanes({ startLane, besides }) {
  const runs = [];
  const laneFailures = [];
  const first = startLane('lane 1', {});
  let queue;
  try {
    queue = [...(await first.files)];
  } catch (error) {
    const { output } = await first.close();
    return { runs, unrun: [], laneFailures: [`lane 1: found no test files (${error.message})`], outputs: [{ name: 'lane 1', output }] };
  }
  // As `vitest run` fails when it finds no test file.
  if (queue.length === 0) laneFailures.push('lane 1: no test files found');
  const all = [...queue];
  let firstRunDone;
  const firstRun = new Promise((resolve) => (firstRunDone = resolve));
  let setup;
  let laneOneAlive = true;
  const drive = async (name, lane) => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const result = await lane.run(file);
      runs.push({ file, report: result.report, ok: result.ok });
      if (name === 'lane 1') {
        if (result.died) laneOneAlive = false;
        else setup ??= result.provided;
      }
      firstRunDone();
      if (result.died) break;
    }
    firstRunDone();
  };
  const close = async (name, lane) => {
    const { output, code } = await lane.close();
    if (code !== 0) laneFailures.push(`${name}: ended with code ${code} after its files (its output says why)`);
    return { name, output };
  };
  const one = drive('lane 1', first);
  // Lane 2 once the other stage ends; none when lane 1 has run every file by then (the stage ends
  // with lane 1, not with the other stage), and at once in lane 1's place when lane 1 has died.
  await Promise.race([Promise.allSettled([besides]), one]);
  await firstRun;
  let second;
  if (queue.length > 0) {
    second = startLane('lane 2', laneOneAlive && setup ? { [SHARED_SETUP]: JSON.stringify(setup) } : {});
    await Promise.all([one, drive('lane 2', second)]);
  } else await one;
  const outputs = [];
  if (second) outputs.push(await close('lane 2', second));
  outputs.unshift(await close('lane 1', first));
  const started = new Set(runs.map((run) => run.file));
  const order = new Map(all.map((file, index) => [file, index]));
  runs.sort((a, b) => order.get(a.file) - order.get(b.file));
  return { runs, unrun: all.filter((file) => !started.has(file)), laneFailures, outputs };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * A lane as a child process (scripts/server-lane.mjs): one Vitest on `config`, one worker, each
 * file's JSON report written under `reports`; `filters` as Vitest's command line takes them (none:
 * every file). Its output is kept, to print once it ends.
 */
export function forkLane(config, reports, filters = []) {
  return (name, env) => {
    const child = fork(LANE_SCRIPT, [config, reports, name.replace(/\W+/g, '-'), ...filters], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => {
      child.on('error', (error) => {
        output += `${error.message}\n`;
        resolve(1);
      });
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
    const message = (type) =>
      Promise.race([
        new Promise((resolve) => {
          const listen = (data) => {
            if (data?.type !== type) return;
            child.off('message', listen);
            resolve(data);
          };
          child.on('message', listen);
        }),
        exited.then(() => undefined),
      ]);
    let dead = false;
    exited.then(() => (dead = true));
    return {
      files: message('files').then((data) => {
        if (!data) throw new Error(`${name} ended before it listed them`);
        return data.files;
      }),
      async run(file) {
        if (dead) return { report: null, ok: false, died: true };
        const done = message('done');
        child.send({ type: 'run', file });
        const data = await done;
        if (!data) return { report: null, ok: false, died: true };
        return {
          report: data.report && existsSync(data.report) ? readJson(data.report) : null,
          ok: data.ok,
          died: false,
          provided: data.provided,
        };
      },
      async close() {
        if (!dead) child.send({ type: 'close' });
        const code = await exited;
        return { output, code };
      },
    };
  };
}
