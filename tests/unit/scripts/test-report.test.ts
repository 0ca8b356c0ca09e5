// npm test's summary names each failed case again at its end (scripts/test-report.mjs), where a CI
// log's last lines show it: file, title and the first line of the error, without terminal colours.
import { describe, expect, it } from 'vitest';
import { playwrightFailures, vitestFailures, type PlaywrightSuite } from '../../../scripts/test-report.mjs';

describe('the failed cases of a run', () => {
  it('a Vitest report: each failed case as file > name: its error’s first line, passed cases left out', () => {
    const report = {
      testResults: [
        {
          name: '/repo/tests/unit/a.test.ts',
          assertionResults: [
            { fullName: 'a passes', status: 'passed', failureMessages: [] },
            {
              fullName: 'a fails',
              status: 'failed',
              failureMessages: ['\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at a.test.ts:3'],
            },
          ],
        },
        { name: '/repo/tests/unit/b.test.ts', assertionResults: [{ fullName: 'b fails', status: 'failed', failureMessages: [] }] },
      ],
    };
    expect(vitestFailures(report, '/repo')).toEqual([
      'tests/unit/a.test.ts > a fails: AssertionError: expected 1 to be 2',
      'tests/unit/b.test.ts > b fails: ',
    ]);
    expect(vitestFailures(null)).toEqual([]);
  });

  it('a Playwright report: unexpected and flaky cases with their describe titles and line, a long error cut at 200, the failing line and locator', () => {
    const long = `Error: ${'x'.repeat(300)}`;
    const spec = (title: string, line: number, status: string, message?: string, at?: number) => ({
      title,
      file: 'accounts.spec.ts',
      line,
      tests: [
        {
          status,
          results: [
            {
              error: message
                ? { message, ...(at ? { location: { file: '/repo/accounts.spec.ts', line: at, column: 5 } } : {}) }
                : undefined,
            },
          ],
        },
      ],
    });
    const suites: PlaywrightSuite[] = [
      {
        title: 'accounts.spec.ts',
        specs: [
          spec('passes', 10, 'expected'),
          spec(
            'goes offline',
            96,
            'unexpected',
            "\u001b[2mError: expect(locator).toBeVisible() failed\u001b[22m\n\n\u001b[2mLocator: \u001b[22mgetByRole('article').filter({ hasText: 'x' })\nExpected: visible",
            105,
          ),
        ],
        suites: [{ title: 'two devices', specs: [spec('sometimes', 120, 'flaky', long), spec('skipped', 130, 'skipped')] }],
      },
    ];
    const failures = playwrightFailures({ suites });
    expect(failures).toEqual([
      "accounts.spec.ts:96 > goes offline: Error: expect(locator).toBeVisible() failed (at line 105; Locator: getByRole('article').filter({ hasText: 'x' }))",
      `accounts.spec.ts:120 > two devices > sometimes: ${long.slice(0, 199)}…`,
    ]);
    expect(playwrightFailures(undefined)).toEqual([]);
  });
});
