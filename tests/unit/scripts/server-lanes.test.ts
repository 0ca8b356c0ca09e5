// npm test's server tests in lanes (issue 64, item 6; scripts/server-lanes.mjs): lane 1 from the start,
// lane 2 once the multi-device tests end, one queue of files, and one report merged from each file's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forkLane, mergeReports, runLanes, SHARED_SETUP, type Lane, type VitestJsonReport } from '../../../scripts/server-lanes.mjs';

/** A Vitest JSON report of one file with these cases. */
function reportOf(file: string, cases: Record<string, 'passed' | 'failed'>, startTime = 1_000): VitestJsonReport {
  const statuses = Object.values(cases);
  const failed = statuses.filter((status) => status === 'failed').length;
  return {
    numTotalTestSuites: 1,
    numPassedTestSuites: failed ? 0 : 1,
    numFailedTestSuites: failed ? 1 : 0,
    numPendingTestSuites: 0,
    numTotalTests: statuses.length,
    numPassedTests: statuses.length - failed,
    numFailedTests: failed,
    numPendingTests: 0,
    numTodoTests: 0,
    startTime,
    success: failed === 0,
    testResults: [
      {
        name: file,
        status: failed ? 'failed' : 'passed',
        assertionResults: Object.entries(cases).map(([fullName, status]) => ({
          fullName,
          status,
          failureMessages: status === 'failed' ? [`AssertionError: ${fullName} went wrong\n    at somewhere`] : [],
        })),
      },
    ],
  };
}

/** Lanes whose runs end when the test says: every start, file taken and close is logged. */
function fakeLanes(files: string[]) {
  const log: string[] = [];
  const pending = new Map<string, (outcome: { died?: boolean; ok?: boolean }) => void>();
  const envs: Record<string, Record<string, string>> = {};
  const startLane = (name: string, env: Record<string, string>): Lane => {
    log.push(`${name} starts`);
    envs[name] = env;
    return {
      files: Promise.resolve(files),
      run: (file) =>
        new Promise((resolve) => {
          log.push(`${name} takes ${file}`);
          pending.set(file, ({ died = false, ok = !died }) =>
            resolve({
              report: died ? null : reportOf(file, { [`${file} case`]: ok ? 'passed' : 'failed' }),
              ok,
              died,
              provided: died ? undefined : { postgresUrl: `postgres://${name}` },
            }),
          );
        }),
      close: () => {
        log.push(`${name} closes`);
        return Promise.resolve({ output: `${name}'s output`, code: 0 });
      },
    };
  };
  /** Ends a file's run once a lane has taken it. */
  const finish = async (file: string, outcome: { died?: boolean; ok?: boolean } = {}) => {
    await expect.poll(() => pending.has(file)).toBe(true);
    pending.get(file)?.(outcome);
    pending.delete(file);
  };
  return { log, envs, startLane, finish };
}

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('the lanes share one queue', () => {
  it('lane 1 runs one file at a time beside the other stage; lane 2 starts when it ends and takes the next file not started', async () => {
    const lanes = fakeLanes(['a', 'b', 'c', 'd', 'e']);
    const devices = deferred();
    const done = runLanes({ startLane: lanes.startLane, besides: devices.promise });
    await lanes.finish('a');
    await lanes.finish('b');
    await expect.poll(() => lanes.log.at(-1)).toBe('lane 1 takes c');
    expect(lanes.log).toEqual(['lane 1 starts', 'lane 1 takes a', 'lane 1 takes b', 'lane 1 takes c']);
    devices.resolve();
    await expect.poll(() => lanes.log.at(-1)).toBe('lane 2 takes d');
    // Lane 1's global setup: its PostgreSQL, dumps and server bundle.
    expect(lanes.envs['lane 2']).toEqual({ [SHARED_SETUP]: JSON.stringify({ postgresUrl: 'postgres://lane 1' }) });
    await lanes.finish('d');
    await expect.poll(() => lanes.log.at(-1)).toBe('lane 2 takes e');
    await lanes.finish('c');
    await lanes.finish('e');
    const result = await done;
    expect(lanes.log).toEqual([
      'lane 1 starts',
      'lane 1 takes a',
      'lane 1 takes b',
      'lane 1 takes c',
      'lane 2 starts',
      'lane 2 takes d',
      'lane 2 takes e',
      // Lane 1 ends last: lane 2 used its PostgreSQL.
      'lane 2 closes',
      'lane 1 closes',
    ]);
    expect(result.runs.map((run) => run.file)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(result.unrun).toEqual([]);
    expect(result.outputs).toEqual([
      { name: 'lane 1', output: "lane 1's output" },
      { name: 'lane 2', output: "lane 2's output" },
    ]);
  });

  it('no lane 2 when lane 1 has taken every file by then', async () => {
    const lanes = fakeLanes(['a', 'b']);
    const devices = deferred();
    const done = runLanes({ startLane: lanes.startLane, besides: devices.promise });
    await lanes.finish('a');
    await expect.poll(() => lanes.log.at(-1)).toBe('lane 1 takes b');
    devices.resolve();
    await lanes.finish('b');
    const result = await done;
    expect(lanes.log).toEqual(['lane 1 starts', 'lane 1 takes a', 'lane 1 takes b', 'lane 1 closes']);
    expect(result.outputs.map((lane) => lane.name)).toEqual(['lane 1']);
  });

  it('the stage ends with lane 1 when it has run every file before the other stage ends', async () => {
    const lanes = fakeLanes(['a', 'b']);
    const done = runLanes({ startLane: lanes.startLane, besides: new Promise(() => undefined) });
    await lanes.finish('a');
    await lanes.finish('b');
    const result = await done;
    expect(result.runs.map((run) => run.file)).toEqual(['a', 'b']);
    expect(lanes.log).not.toContain('lane 2 starts');
  });

  it('lane 2 takes lane 1’s place at once when lane 1 dies while the other stage runs, with a setup of its own', async () => {
    const lanes = fakeLanes(['a', 'b', 'c']);
    const done = runLanes({
      startLane: lanes.startLane,
      besides: new Promise(() => undefined),
    });
    await lanes.finish('a');
    await lanes.finish('b', { died: true });
    await expect.poll(() => lanes.log.at(-1)).toBe('lane 2 takes c');
    expect(lanes.envs['lane 2']).toEqual({});
    await lanes.finish('c');
    const result = await done;
    expect(result.runs.map((run) => [run.file, run.ok])).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
  });

  it('lane 2 waits for lane 1 to finish a file (its global setup runs before it), and makes its own setup when lane 1 died first', async () => {
    const lanes = fakeLanes(['a', 'b', 'c']);
    const done = runLanes({ startLane: lanes.startLane, besides: Promise.resolve() });
    await expect.poll(() => lanes.log.at(-1)).toBe('lane 1 takes a');
    expect(lanes.log).not.toContain('lane 2 starts');
    await lanes.finish('a', { died: true });
    await expect.poll(() => lanes.log.at(-1)).toBe('lane 2 takes b');
    expect(lanes.envs['lane 2']).toEqual({});
    await lanes.finish('b');
    await lanes.finish('c');
    const result = await done;
    expect(result.runs.map((run) => [run.file, run.ok])).toEqual([
      ['a', false],
      ['b', true],
      ['c', true],
    ]);
    const merged = mergeReports(result.runs, result.unrun, result.laneFailures);
    expect([merged.passed, merged.failed]).toEqual([2, 1]);
    expect(merged.failures).toEqual(['a: no report (its lane ended in it)']);
  });

  it('no test file found is a failure, as it is for vitest run', async () => {
    const lanes = fakeLanes([]);
    const result = await runLanes({ startLane: lanes.startLane, besides: Promise.resolve() });
    const merged = mergeReports(result.runs, result.unrun, result.laneFailures);
    expect([merged.passed, merged.failed, merged.failures]).toEqual([0, 1, ['lane 1: no test files found']]);
    expect(lanes.log).toEqual(['lane 1 starts', 'lane 1 closes']);
  });

  it('files no lane ran are failures, one each', async () => {
    const lanes = fakeLanes(['a', 'b', 'c']);
    const done = runLanes({ startLane: lanes.startLane, besides: Promise.resolve() });
    await lanes.finish('a', { died: true });
    await lanes.finish('b', { died: true });
    const result = await done;
    expect(result.unrun).toEqual(['c']);
    const merged = mergeReports(result.runs, result.unrun, result.laneFailures);
    expect([merged.passed, merged.failed]).toEqual([0, 3]);
    expect(merged.failures).toEqual([
      'a: no report (its lane ended in it)',
      'b: no report (its lane ended in it)',
      'c: not run (every lane ended before it)',
    ]);
  });
});

describe('one report from the files’ reports', () => {
  it('adds the counts, keeps every file’s results and names each failed case', () => {
    const merged = mergeReports(
      [
        {
          file: '/repo/tests/server/a.test.ts',
          report: reportOf('/repo/tests/server/a.test.ts', { 'a one': 'passed', 'a two': 'failed' }, 2_000),
          ok: false,
        },
        {
          file: '/repo/tests/server/b.test.ts',
          report: reportOf('/repo/tests/server/b.test.ts', { 'b one': 'passed', 'b two': 'passed' }, 1_500),
          ok: true,
        },
        { file: '/repo/tests/server/c.test.ts', report: reportOf('/repo/tests/server/c.test.ts', { 'c one': 'failed' }), ok: false },
      ],
      [],
      [],
      '/repo',
    );
    expect([merged.passed, merged.failed]).toEqual([3, 2]);
    expect(merged.failures).toEqual([
      'tests/server/a.test.ts > a two: AssertionError: a two went wrong',
      'tests/server/c.test.ts > c one: AssertionError: c one went wrong',
    ]);
    expect(merged.report).toMatchObject({
      numTotalTestSuites: 3,
      numFailedTestSuites: 2,
      numTotalTests: 5,
      numPassedTests: 3,
      numFailedTests: 2,
      startTime: 1_000,
      success: false,
    });
    expect(merged.report.testResults.map((result) => result.name)).toEqual(
      ['a', 'b', 'c'].map((name) => `/repo/tests/server/${name}.test.ts`),
    );
  });

  it('a run that failed without a failed case counts one failure, as does a lane that ended badly; all passed is a success', () => {
    const quiet = reportOf('a', { 'a one': 'passed' });
    const broken = mergeReports(
      [{ file: '/r/a.test.ts', report: quiet, ok: false }],
      [],
      ['lane 2: ended with code 2 after its files'],
      '/r',
    );
    expect([broken.passed, broken.failed, broken.report.success]).toEqual([1, 2, false]);
    expect(broken.failures).toEqual([
      'a.test.ts: failed outside its cases (its output says how)',
      'lane 2: ended with code 2 after its files',
    ]);
    const fine = mergeReports([{ file: '/r/a.test.ts', report: quiet, ok: true }], [], [], '/r');
    expect([fine.passed, fine.failed, fine.report.success, fine.failures]).toEqual([1, 0, true, []]);
  });
});

describe('a lane as a process (scripts/server-lane.mjs, through Vitest’s API)', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists its files, runs the one it is sent, reports each run and ends when told', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ie-lane-'));
    writeFileSync(
      join(dir, 'lane.config.mjs'),
      `export default { root: ${JSON.stringify(dir)}, test: { include: ['*.check.mjs'], globals: true } };\n`,
    );
    writeFileSync(join(dir, 'passes.check.mjs'), "it('adds', () => expect(1 + 1).toBe(2));\n");
    writeFileSync(join(dir, 'fails.check.mjs'), "it('adds', () => expect(1 + 1).toBe(2));\nit('is wrong', () => expect(1).toBe(2));\n");
    writeFileSync(join(dir, 'breaks.check.mjs'), "throw new Error('does not load');\n");
    const lane = forkLane(join(dir, 'lane.config.mjs'), join(dir, 'reports'))('lane 1', {});
    const files = await lane.files;
    expect([...files].sort()).toEqual(['breaks', 'fails', 'passes'].map((name) => join(dir, `${name}.check.mjs`)));
    const runs = [];
    for (const file of files) runs.push({ file, ...(await lane.run(file)) });
    const { output, code } = await lane.close();
    expect(code, output).toBe(0);
    const merged = mergeReports(runs, [], [], dir);
    expect([merged.passed, merged.failed]).toEqual([2, 2]);
    expect([...merged.failures].sort()).toEqual([
      'breaks.check.mjs: failed outside its cases (its output says how)',
      expect.stringMatching(/^fails\.check\.mjs > is wrong: AssertionError: expected 1 to be 2/),
    ]);
    expect(runs.find((run) => run.file.endsWith('passes.check.mjs'))?.ok).toBe(true);
  });
});
