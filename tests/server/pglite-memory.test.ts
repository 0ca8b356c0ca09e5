// The embedded database's memory settings (docs/server.md, "Memory"): PGlite runs with 16 MB of
// shared_buffers and 5 connection slots, its creation writes them into the folder, and an empty
// DATA_DIR is created by a child process (create-database.js) whose failures read as clear messages.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseOpenError } from '../../server/db/adapter';
import { openPglite } from '../../server/db/pglite';
import { processTestFiles } from './support/process';

const { tempDir } = processTestFiles();
const builtScript = () => join(process.cwd(), 'dist-server-test', 'create-database.js');

/** A stand-in for create-database.js that says `line` on stderr and exits 1. */
function failingScript(line: string): string {
  const file = join(tempDir('ie-create-script-'), 'fail.mjs');
  writeFileSync(file, `console.error(${JSON.stringify(line)}); process.exit(1);\n`);
  return file;
}

describe('PGlite memory settings', () => {
  it('runs with 16 MB of shared_buffers and 5 connections, durable settings untouched', async () => {
    const db = await openPglite({});
    try {
      const [row] = await db.query<Record<string, string>>(
        "SELECT current_setting('shared_buffers') AS buffers, current_setting('max_connections') AS connections, current_setting('synchronous_commit') AS sync",
      );
      expect(row).toEqual({ buffers: '16MB', connections: '5', sync: 'on' });
    } finally {
      await db.close();
    }
  });

  it('creates an empty DATA_DIR in a child process that writes the settings into postgresql.conf', async () => {
    const dataDir = tempDir('ie-created-');
    const db = await openPglite({ dataDir, createScript: builtScript() });
    try {
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
      const conf = readFileSync(join(dataDir, 'postgresql.conf'), 'utf8');
      expect(conf).toMatch(/^shared_buffers = 16MB/m);
      expect(conf).toMatch(/^max_connections = 5/m);
      expect((await db.query<{ one: number }>('SELECT 1 AS one'))[0]!.one).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('reports a creation that fails in the child with its message, and ENOSPC as a full disk', async () => {
    const broken = openPglite({ dataDir: tempDir('ie-create-fails-'), createScript: failingScript('initdb said no') });
    await expect(broken).rejects.toThrow(DatabaseOpenError);
    await expect(broken).rejects.toThrow(/cannot be created: initdb said no/);
    const full = openPglite({ dataDir: tempDir('ie-create-full-'), createScript: failingScript('ENOSPC: no space left on device, write') });
    await expect(full).rejects.toThrow(/is full \(no space left while creating the database\)/);
  });

  it('opens a folder that already holds a database without running the creation script', async () => {
    const dataDir = tempDir('ie-warm-');
    await (await openPglite({ dataDir, createScript: builtScript() })).close();
    const db = await openPglite({ dataDir, createScript: failingScript('must not run') });
    await db.close();
  });
});
