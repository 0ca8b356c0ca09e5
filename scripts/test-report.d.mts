/** A Vitest JSON report, as far as its failures are read. */
export interface VitestFailuresReport {
  testResults?: { name: string; assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[] }[];
}
/** A case's error in a Playwright JSON report: its message and where it was raised. */
export interface PlaywrightError {
  message?: string;
  location?: { file: string; line: number; column: number };
}
/** A Playwright JSON report's suites, as far as their failures are read. */
export interface PlaywrightSuite {
  title: string;
  specs?: {
    title: string;
    file: string;
    line: number;
    tests?: { status: string; results?: { error?: PlaywrightError; errors?: PlaywrightError[] }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}
export function vitestFailures(report: VitestFailuresReport | null | undefined, root?: string): string[];
export function playwrightFailures(report: { suites?: PlaywrightSuite[] } | null | undefined): string[];
