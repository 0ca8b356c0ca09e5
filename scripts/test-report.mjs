// The failed cases of a run's JSON reports, one line each, for npm test's summary (scripts/test.mjs):
// a CI log often shows only its last lines, so the summary names what failed again there.
import { stripVTControlCharacters } from 'node:util';

/** A failure's first line, without the terminal's colours, at most 200 characters. */
function firstLine(message) {
  const line =
    stripVTControlCharacters(String(message ?? ''))
      .trim()
      .split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** Each failed case of a Vitest JSON report, as `file > name: first line of its error`. */
export function vitestFailures(report, root = process.cwd()) {
  return (report?.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((test) => test.status === 'failed')
      .map((test) => `${String(file.name).replace(`${root}/`, '')} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`),
  );
}

/**
 * Each failed (or flaky) case of a Playwright JSON report, as `file:line > title: first line of its
 * error`, then where in the case it failed and the locator it waited on, when the report has them
 * (`(at line 175; Locator: …)`): a case with several like assertions names which one.
 */
export function playwrightFailures(report) {
  const failures = [];
  const walk = (suite, titles) => {
    const path = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const error = (test.results ?? []).map((result) => result.error ?? result.errors?.[0]).find((found) => found?.message);
        const line = error?.location?.line;
        const locator = /^Locator: (.*)$/m.exec(stripVTControlCharacters(String(error?.message ?? '')))?.[1];
        const where = [line === undefined ? '' : `at line ${line}`, locator ? `Locator: ${locator.trim().slice(0, 160)}` : '']
          .filter(Boolean)
          .join('; ');
        failures.push(
          `${spec.file}:${spec.line} > ${[...path, spec.title].join(' > ')}: ${firstLine(error?.message)}${where ? ` (${where})` : ''}`,
        );
      }
    for (const child of suite.suites ?? []) walk(child, path);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  return failures;
}
