// The real server as a child process: built once from server/ into dist-server-test/ (as
// `npm run build` does), started with an environment, and its URL read from its log.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { fixtureDist } from './fixture-dist';

const OUT = join(process.cwd(), 'dist-server-test');

/** Builds the server bundle the process tests run. */
export function buildServerBundle(): void {
  execFileSync(join('node_modules', '.bin', 'vite'), ['build', '--config', 'vite.server.config.ts', '--logLevel', 'error'], {
    env: { ...process.env, SERVER_OUT_DIR: OUT },
    stdio: 'inherit',
  });
  serverBundleBuilt();
}

/** Throws unless the server bundle is there. */
export function serverBundleBuilt(): void {
  if (!existsSync(join(OUT, 'server.js'))) throw new Error('the server bundle was not built');
}

/**
 * For a file of process tests: a fixture dist/ before its tests (the bundle is built once for the
 * run, by global-setup.ts), and every temporary folder made through `tempDir` removed after them.
 */
export function processTestFiles(): { tempDir: (prefix: string) => string; distDir: () => string } {
  const temp: string[] = [];
  let dist = '';
  beforeAll(() => {
    if (!existsSync(join(OUT, 'server.js'))) throw new Error('the server bundle is missing: global-setup.ts builds it');
    dist = fixtureDist();
    temp.push(dist);
  });
  afterAll(() => {
    for (const dir of temp) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    temp.push(dir);
    return dir;
  };
  return { tempDir, distDir: () => dist };
}

/** The built `npm run admin:password` tool. */
export const adminPasswordScript = () => join(OUT, 'admin-password.js');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
}

/** Spawns the server (optionally through `wrap`, e.g. su) and resolves once it listens, or rejects with its output. */
export function startServerProcess(env: Record<string, string>, wrap?: (command: string[]) => string[]): Promise<ServerProcess> {
  const command = wrap ? wrap(['node', join(OUT, 'server.js')]) : ['node', join(OUT, 'server.js')];
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Insight Exchange listening at (https?:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) resolve({ child, url, output: () => output, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`the server exited with ${code} before listening:\n${output}`)));
  });
}

/** Stops a server process with `signal` and resolves with its exit code. */
export async function stopServer(server: ServerProcess, signal: NodeJS.Signals): Promise<number | null> {
  server.child.kill(signal);
  return server.exited;
}

/** Runs the server expecting it to fail at start: resolves with its exit code and output. */
export async function failedStart(
  env: Record<string, string>,
  wrap?: (command: string[]) => string[],
): Promise<{ code: number | null; output: string }> {
  try {
    const server = await startServerProcess(env, wrap);
    await stopServer(server, 'SIGKILL');
    return { code: 0, output: server.output() };
  } catch (error) {
    const message = (error as Error).message;
    const code = Number(/exited with (\d+)/.exec(message)?.[1] ?? NaN);
    return { code, output: message };
  }
}

/** The built `npm run backup` / `npm run restore` tool. */
export const backupScript = () => join(OUT, 'backup.js');
