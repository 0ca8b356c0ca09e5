// The real server (npm run build's dist-server/server.js, serving this branch's dist/) as a child
// process for the multi-device tests: a temporary DATA_DIR, a port of this suite's range, and a
// known admin password. Killed with SIGKILL or stopped with SIGTERM; restartable on the same port.
import { spawn, type ChildProcess } from 'node:child_process';
import { test } from '@playwright/test';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ADMIN_PASSWORD = 'admin-e2e-password';
export const SERVER_JS = resolve(process.env.SYNC_E2E_SERVER ?? 'dist-server/server.js');
/** The variable through which the global setup (support/global-setup.ts) names its template data folder. */
export const TEMPLATE_ENV = 'SYNC_E2E_TEMPLATE_DATA';
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
  /** The member limits: relaxed (the default, for specs not about them) or the server's own. */
  limits?: 'relaxed' | 'defaults';
}

const OPEN_LIMIT = { count: 1_000_000, seconds: 1, firstDayCount: 1_000_000, firstDaySeconds: 1 };

/**
 * Opens every member limit wide through the admin API (the specs' members write dozens of posts a
 * minute on their first day); kept in the database, so a restart keeps them.
 */
async function relaxLimits(url: string, env: Record<string, string>): Promise<void> {
  const headers = { origin: url, 'content-type': 'application/json' };
  const email = env.ADMIN_EMAIL ?? 'admin@insightexchange.app';
  const password = env.ADMIN_PASSWORD ?? ADMIN_PASSWORD;
  const session = await fetch(`${url}/api/session`, { method: 'POST', headers, body: JSON.stringify({ mode: 'signin', email, password }) });
  if (!session.ok) throw new Error(`the admin could not sign in to relax the limits: ${await session.text()}`);
  const cookie = session.headers
    .getSetCookie()
    .map((one) => one.split(';')[0])
    .join('; ');
  const current = (await (await fetch(`${url}/api/admin/limits`, { headers: { cookie } })).json()) as { limits: Record<string, unknown> };
  // Every limit in one request (saved together, as the admin's one Save does).
  const set = await fetch(`${url}/api/admin/limits`, {
    method: 'PUT',
    headers: { ...headers, cookie },
    body: JSON.stringify({ limits: Object.fromEntries(Object.keys(current.limits).map((name) => [name, OPEN_LIMIT])) }),
  });
  if (!set.ok) throw new Error(`the limits could not be relaxed: ${await set.text()}`);
  await fetch(`${url}/api/session`, { method: 'DELETE', headers: { origin: url, cookie } });
}

/**
 * Each running server's mail group by its URL: the .eml folders (DATA_DIR/mail) its emails may be
 * written to (support/devices.ts follows sign-up links). Servers sharing one DATABASE_URL share its
 * outbox, and whichever instance claims a message writes it into its own folder: they share a group.
 */
const mailGroups = new Map<string, string[]>();
const groupsByDatabase = new Map<string, string[]>();

/** The mail folders of the server at `url` started by this process (its own first), if any. */
export const mailDirsOf = (url: string): readonly string[] | undefined => mailGroups.get(new URL(url).origin);

/** The server's environment: the suite's defaults, then `env`. */
export function serverEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    ADMIN_PASSWORD,
    DIST_DIR: resolve('dist'),
    LOG_LEVEL: 'warn',
    // Password hashes at a test cost (server/lib/passwords.ts): every device signs in, each at about 0.9 s of a core otherwise.
    PASSWORD_SCRYPT_N: '1024',
    ...env,
  };
}

/** What the server's first start reads to create, migrate and seed its database (server/db/storage/startup.ts). */
const SEEDED_FROM = ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'PASSWORD_SCRYPT_N'];

/**
 * A new data folder for a server started with `env`: a copy of the global setup's migrated, seeded
 * one when `env` changes nothing the first start seeds from (so the copy is what that start would
 * have made), else an empty one, which the server creates, migrates and seeds itself.
 */
function newDataDir(env: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ie-sync-e2e-'));
  const template = process.env[TEMPLATE_ENV];
  if (template && !SEEDED_FROM.some((name) => name in env)) cpSync(template, dir, { recursive: true });
  return dir;
}

/** Starts the server and resolves once GET /api/health answers. */
export async function startServer({ port, dataDir: given, env = {}, limits = 'relaxed' }: ServerOptions): Promise<RunningServer> {
  const dataDir = given ?? newDataDir(env);
  const child: ChildProcess = spawn(process.execPath, [SERVER_JS], {
    env: serverEnv({ PORT: String(port), DATA_DIR: dataDir, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  // A bound, not a wait: a start takes 1–3 s here, but CI runs the server tests beside these specs
  // (scripts/test.mjs), and a PGlite start on two busy cores once took over 60 s.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited at start:\n${output}`);
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /api/health within 180 s:\n${output}`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  if (!env.SMTP_URL) {
    const group = env.DATABASE_URL ? (groupsByDatabase.get(env.DATABASE_URL) ?? []) : [];
    if (env.DATABASE_URL) groupsByDatabase.set(env.DATABASE_URL, group);
    const mailDir = join(dataDir, 'mail');
    if (!group.includes(mailDir)) group.push(mailDir);
    mailGroups.set(url, group);
  }
  if (limits === 'relaxed') await relaxLimits(url, env);
  const server: RunningServer = {
    url,
    port,
    dataDir,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      await exited;
    },
    restart: () => startServer({ port, dataDir, env, limits: 'defaults' }),
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
