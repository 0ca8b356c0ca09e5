// Once per run of the multi-device tests: a migrated, seeded data folder (the admin with
// ADMIN_PASSWORD at the test hash cost), made by one real start of the built server and stopped
// cleanly. startServer copies it into a spec's new DATA_DIR (support/server.ts, templateFor), so a
// spec's server starts on a ready database instead of creating one (a child process unpacking the
// ready-made database) and migrating and seeding it: 4.5 s → 2.0 s a start on a quiet machine, and
// about 30 such starts a run. The first start's own behaviour (creation, the generated password) is
// the server tests' point (tests/server/server-start-log.test.ts, server.test.ts), not these specs'.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverEnv, SERVER_JS, TEMPLATE_ENV } from './server';

export default async function globalSetup(): Promise<() => void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ie-sync-e2e-template-'));
  // Port 0: the system's choice, so no port of the suite's range is taken; listening means started.
  const child = spawn(process.execPath, [SERVER_JS], {
    env: serverEnv({ PORT: '0', DATA_DIR: dataDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const started = new Promise<boolean>((resolve) => {
    const listen = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Insight Exchange listening at /u.test(output)) resolve(true);
    };
    child.stdout!.on('data', listen);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', () => resolve(false));
  });
  // A bound, not a wait (as startServer's).
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  const ok = await started;
  clearTimeout(timer);
  const exited = new Promise<void>((done) => (child.exitCode !== null ? done() : child.once('exit', () => done())));
  // SIGTERM: a clean shutdown, so the copied folder is a closed database.
  if (child.exitCode === null) child.kill('SIGTERM');
  await exited;
  if (!ok || child.exitCode !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`the multi-device tests' template database could not be made (exit ${child.exitCode}):\n${output}`);
  }
  process.env[TEMPLATE_ENV] = dataDir;
  return () => rmSync(dataDir, { recursive: true, force: true });
}
