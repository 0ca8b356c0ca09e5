// One lane of the server tests (scripts/server-lanes.mjs forks it): a Vitest kept open, one worker,
// that runs the test files its parent sends one at a time. Its global setup runs before the first and
// is torn down at the end, as in one `vitest run`. Messages: it sends `{ type: 'files', files }`
// (every test file, in the order Vitest's sequencer gives: the slowest of the last run first when
// Vitest's cache has them, else the largest), then `{ type: 'done', file, report, ok }` after each
// `{ type: 'run', file }` (with `provided`: what its global setup provided); `{ type: 'close' }` ends it.
// Usage: node scripts/server-lane.mjs <vitest config> <folder for the reports> <lane name> [file filters…]
import { mkdirSync, renameSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createVitest } from 'vitest/node';

const [config, reports, lane, ...filters] = process.argv.slice(2);
// As `vitest run` sets them (its prepareVitest).
process.env.TEST = 'true';
process.env.VITEST = 'true';
process.env.NODE_ENV ??= 'test';
mkdirSync(reports, { recursive: true });
const latest = join(reports, `${lane}-latest.json`);

const vitest = await createVitest('test', {
  config,
  watch: false,
  maxWorkers: 1,
  reporters: ['default', 'json'],
  outputFile: { json: latest },
});
// Starts the reporters (as `vitest run` does before its run), without running a file.
await vitest.standalone();
const specifications = await vitest.globTestSpecifications(filters);
const Sequencer = vitest.config.sequence.sequencer;
const ordered = await new Sequencer(vitest).sort(specifications);
process.send({ type: 'files', files: [...new Set(ordered.map((spec) => spec.moduleId))] });

let count = 0;
process.on('message', (message) => {
  if (message?.type === 'run') void run(message.file);
  else if (message?.type === 'close') void close();
});
// Its parent gone (npm test stopped), it stops too, its PostgreSQL with it.
process.on('disconnect', () => void close());

async function run(file) {
  let ok = false;
  let report = null;
  try {
    const specs = vitest.getModuleSpecifications(file);
    if (specs.length === 0) throw new Error(`${file} is not one of this lane's test files`);
    const result = await vitest.runTestSpecifications(specs);
    const modules = result.testModules.filter((module) => module.moduleId === file);
    ok = result.unhandledErrors.length === 0 && modules.length > 0 && modules.every((module) => module.ok());
    count += 1;
    report = join(reports, `${lane}-${String(count).padStart(3, '0')}-${relative(process.cwd(), file).replace(/\W+/g, '-')}.json`);
    renameSync(latest, report);
  } catch (error) {
    console.error(`${lane}: ${file}: ${error?.stack ?? error}`);
  }
  // What the global setup provided (the PostgreSQL's URL, the dumps), for a lane that shares it.
  let provided;
  try {
    provided = vitest.getRootProject().getProvidedContext();
  } catch {
    provided = undefined;
  }
  process.send({ type: 'done', file, report, ok, provided });
}

let closing = false;
async function close() {
  if (closing) return;
  closing = true;
  let code = 0;
  try {
    await vitest.close();
  } catch (error) {
    console.error(`${lane}: closing Vitest: ${error?.stack ?? error}`);
    code = 2;
  }
  process.exit(code);
}
