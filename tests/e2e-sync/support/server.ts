// The real server (npm run build's dist-server/server.js, serving this branch's dist/) as a child
// process for the multi-device tests: a temporary DATA_DIR, a port of this suite's range, and a
// known admin password. Killed with SIGKILL or stopped with SIGTERM; restartable on the same port.
import { spawn, type ChildProcess } from 'node:child_process';
import { test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ADMIN_PASSWORD = 'admin-e2e-password';
const SERVER_JS = resolve(process.env.SYNC_E2E_SERVER ?? 'dist-server/server.js');
const PORT_BASE = Number(process.env.SYNC_E2E_PORT_BASE ?? 4410);

/** The suite's port `offset` (0–19): from SYNC_E2E_PORT_BASE, default 4410, so runs can move their range. */
export function syncPort(offset: number): number {
  return PORT_BASE + offset;
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** Stops it (SIGTERM: a clean shutdown; SIGKILL: a crash) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again with the same data, port and environment. */
  restart(): Promise<RunningServer>;
  output(): string;
}

export interface ServerOptions {
  port: number;
  dataDir?: string;
  env?: Record<string, string>;
}

/** Starts the server and resolves once GET /api/health answers. */
export async function startServer({
  port,
  dataDir = mkdtempSync(join(tmpdir(), 'ie-sync-e2e-')),
  env = {},
}: ServerOptions): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, [SERVER_JS], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      DIST_DIR: resolve('dist'),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited at start:\n${output}`);
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /api/health within 60 s:\n${output}`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  const server: RunningServer = {
    url,
    port,
    dataDir,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      await exited;
    },
    restart: () => startServer({ port, dataDir, env }),
    output: () => output,
  };
  return server;
}

/** Removes a server's data folder (after it stopped). */
export function removeData(server: RunningServer): void {
  rmSync(server.dataDir, { recursive: true, force: true });
}

/**
 * A server for one spec file: started before its tests, stopped (its data removed) after them.
 * `holder.server` may be replaced by a restarted one; the last one is stopped.
 */
export function serverForSpec(port: number): { server: RunningServer } {
  const holder = { server: undefined as unknown as RunningServer };
  test.beforeAll(async () => {
    holder.server = await startServer({ port });
  });
  test.afterAll(async () => {
    if (!holder.server) return;
    await holder.server.stop();
    removeData(holder.server);
  });
  return holder;
}
