// A throwaway PostgreSQL server from Debian's `postgresql` binaries, for the server tests and the
// server benchmark: initdb into a temporary folder, a free port, 127.0.0.1 only, run as the
// `postgres` user when we are root; removed by stop(). Installs the package when missing and root.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function findBinDir() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : undefined;
}

/** The PostgreSQL bin folder; installs Debian's `postgresql` when missing and root, else throws a plain message. */
export function ensurePostgres() {
  const found = findBinDir();
  if (found) return found;
  if (isRoot() && existsSync('/usr/bin/apt-get')) {
    console.log("Installing Debian's PostgreSQL for the server tests…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env });
    const installed = findBinDir();
    if (installed) return installed;
  }
  throw new Error(
    "PostgreSQL is missing: run 'sudo apt-get install -y postgresql' first (the server tests start their own throwaway server).",
  );
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs a shell command as the `postgres` user when we are root (PostgreSQL and PgBouncer refuse root), else as ourselves. */
export function runAsOwner(command) {
  const result = isRoot()
    ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { encoding: 'utf8' })
    : spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
}

/**
 * Starts a fresh PostgreSQL; resolves to { url, port, stop }. `durable: false` turns fsync off
 * (tests); the benchmark keeps the defaults. It listens on `port`, else on POSTGRES_PORT when set (a
 * machine shared by several people gives each their own ports), else on a free port.
 */
export async function startPostgres({ durable = false, port: chosen = Number(process.env.POSTGRES_PORT) || undefined } = {}) {
  const bin = ensurePostgres();
  const dir = mkdtempSync(join(tmpdir(), 'ie-pg-'));
  if (isRoot())
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    );
  const port = chosen ?? (await freePort());
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=200',
    ...(durable ? [] : ['-c fsync=off']),
  ].join(' ');
  runAsOwner(`${bin}/initdb -D ${dir}/data -A trust -U postgres >/dev/null`);
  runAsOwner(`${bin}/pg_ctl -D ${dir}/data -l ${dir}/log -o "${options}" -w start >/dev/null`);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    /** Stops the server (fast shutdown) keeping its data; resume() starts it again on the same port. */
    pause() {
      runAsOwner(`${bin}/pg_ctl -D ${dir}/data -m fast -w stop >/dev/null`);
    },
    resume() {
      runAsOwner(`${bin}/pg_ctl -D ${dir}/data -l ${dir}/log -o "${options}" -w start >/dev/null`);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        runAsOwner(`${bin}/pg_ctl -D ${dir}/data -m immediate -w stop >/dev/null`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
