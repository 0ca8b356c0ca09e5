// PostgreSQL's own pg_dump and pg_restore for `npm run backup` and `npm run restore` on DATABASE_URL:
// the newest Debian PostgreSQL's (a pg_dump must be at least as new as the server it reads), else
// the one on PATH. The password goes in PGPASSWORD, never on a command line others can read.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The path of `tool` (pg_dump, pg_restore), or its bare name for PATH to find. */
export function postgresTool(tool: 'pg_dump' | 'pg_restore'): string {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const newest = readdirSync(base)
      .filter((version) => existsSync(join(base, version, 'bin', tool)))
      .sort((a, b) => Number(b) - Number(a))[0];
    if (newest) return join(base, newest, 'bin', tool);
  }
  return tool;
}

/** A connection URL without its password, and the environment that carries the password instead. */
export function connectionArgs(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** Runs a PostgreSQL tool; rejects with its last error line (or a clear word when it is not installed). */
export function runTool(tool: 'pg_dump' | 'pg_restore', args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(postgresTool(tool), args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ENOENT'
            ? `${tool} is not installed: run 'sudo apt-get install -y postgresql-client' (or postgresql) first.`
            : `${tool} could not run: ${error.message}`,
        ),
      ),
    );
    child.once('exit', (code) => {
      if (code === 0) return resolve(stdout);
      const last = stderr.trim().split('\n').filter(Boolean).at(-1) ?? `exit code ${code}`;
      reject(new Error(`${tool} failed: ${last.replace(/^(pg_dump|pg_restore): (error: )?/u, '')}`));
    });
  });
}
