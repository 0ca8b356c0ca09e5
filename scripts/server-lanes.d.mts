/** A Vitest JSON report (its `--reporter=json` output), as far as the lanes read it. */
export interface VitestJsonReport {
  numTotalTestSuites: number;
  numPassedTestSuites: number;
  numFailedTestSuites: number;
  numPendingTestSuites: number;
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  startTime: number;
  success: boolean;
  testResults: { name: string; status: string; assertionResults: { fullName: string; status: string; failureMessages?: string[] }[] }[];
}
export interface FileRun {
  file: string;
  report: VitestJsonReport | null;
  ok: boolean;
}
export interface Lane {
  files: Promise<string[]>;
  run(file: string): Promise<{ report: VitestJsonReport | null; ok: boolean; died: boolean; provided?: Record<string, unknown> }>;
  close(): Promise<{ output: string; code: number }>;
}
export const SHARED_SETUP: 'SERVER_TEST_SETUP';
export function mergeReports(
  runs: readonly FileRun[],
  unrun?: readonly string[],
  laneFailures?: readonly string[],
  root?: string,
): { report: VitestJsonReport; passed: number; failed: number; failures: string[] };
export function runLanes(options: {
  startLane: (name: string, env: Record<string, string>) => Lane;
  besides: Promise<unknown> | undefined;
}): Promise<{ runs: FileRun[]; unrun: string[]; laneFailures: string[]; outputs: { name: string; output: string }[] }>;
export function forkLane(config: string, reports: string, filters?: readonly string[]): (name: string, env: Record<string, string>) => Lane;
