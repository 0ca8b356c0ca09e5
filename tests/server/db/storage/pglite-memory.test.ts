// The embedded database's memory settings (docs/server.md, "Memory"): PGlite runs with 16 MB of
// shared_buffers and 5 connection slots, its creation writes them into the folder, and an empty
// DATA_DIR is created by a child process (create-database.js) whose failures read as clear messages,
// from the ready-made empty database that the build puts beside the server (db/ready-made.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DatabaseOpenError } from '../../../../server/db/storage/adapter';
import { openPglite, readReadyMade } from '../../../../server/db/storage/pglite';
import { builtCreation, installedPgliteVersion, READY_MADE_NAME, readyMadeSource } from '../../../../server/db/storage/ready-made';
import { startUp } from '../../../../server/db/storage/startup';
import { processTestFiles } from '../../support/process';

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
    const first = await openPglite({ dataDir, createScript: builtScript() });
    const created = await systemIdentifier(first);
    await first.query('CREATE TABLE kept (n int)');
    await first.query('INSERT INTO kept VALUES (7)');
    await first.close();
    const db = await openPglite({ dataDir, createScript: failingScript('must not run') });
    try {
      // The same database, with what was written to it: not a new one, nor one in memory.
      expect(await systemIdentifier(db)).toBe(created);
      expect(await db.query('SELECT n FROM kept')).toEqual([{ n: 7 }]);
    } finally {
      await db.close();
    }
  });
});

/** The database's system identifier: initdb draws a new one each time; a ready-made database keeps its own. */
async function systemIdentifier(db: { query: <T>(text: string) => Promise<T[]> }): Promise<string> {
  const [row] = await db.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()');
  return row!.id;
}

describe('the ready-made empty database', () => {
  const source = () => join(process.cwd(), readyMadeSource(installedPgliteVersion()));
  const built = () => join(process.cwd(), 'dist-server-test', READY_MADE_NAME);

  /** The identifier of the repository's ready-made database, read from a copy opened in memory. */
  async function readyMadeIdentifier(): Promise<string> {
    const db = await openPglite({ loadDataDir: readReadyMade(source()) });
    try {
      return await systemIdentifier(db);
    } finally {
      await db.close();
    }
  }

  it('is in the repository for the installed PGlite, and the build puts it beside the server', () => {
    expect(existsSync(source()), `${source()} is missing: run npm run db:ready-made after upgrading PGlite`).toBe(true);
    expect(readFileSync(built()).equals(readFileSync(source()))).toBe(true);
    const beside = builtCreation(pathToFileURL(join(process.cwd(), 'dist-server-test', 'server.js')).href);
    expect(beside).toEqual({
      readyMade: built(),
      createScript: builtScript(),
      workerScript: join(process.cwd(), 'dist-server-test', 'pglite-worker.js'),
    });
    expect(builtCreation(import.meta.url)).toEqual({});
  });

  it('is what a first start unpacks in the child: no initdb, the settings in place, migrations and seeding run', async () => {
    const expected = await readyMadeIdentifier();
    const dataDir = tempDir('ie-ready-made-');
    const db = await openPglite({ dataDir, createScript: builtScript(), readyMade: built() });
    try {
      expect(await systemIdentifier(db)).toBe(expected);
      expect(readFileSync(join(dataDir, 'postgresql.conf'), 'utf8')).toMatch(/^shared_buffers = 16MB/m);
      const report = await startUp(db, { adminEmail: 'admin@example.com', adminPassword: 'a long admin password', log: () => {} });
      expect(report.seeded).toBe(true);
    } finally {
      await db.close();
    }
    const again = await openPglite({ dataDir, createScript: failingScript('must not run'), readyMade: built() });
    try {
      expect(await systemIdentifier(again)).toBe(expected);
      expect((await again.query<{ n: number }>('SELECT count(*)::int AS n FROM posts'))[0]!.n).toBe(3);
    } finally {
      await again.close();
    }
  });

  it('is unpacked beside the folder, then moved in with PG_VERSION last: leftovers of a creation cut short are replaced', async () => {
    const dataDir = tempDir('ie-ready-made-cut-');
    // What a creation killed half-way through the move leaves: some of the files, no PG_VERSION.
    mkdirSync(join(dataDir, 'base', '1'), { recursive: true });
    writeFileSync(join(dataDir, 'base', '1', 'leftover'), 'x');
    mkdirSync(join(dataDir, '.creating', 'global'), { recursive: true });
    const db = await openPglite({ dataDir, createScript: builtScript(), readyMade: built() });
    try {
      expect(await systemIdentifier(db)).toBe(await readyMadeIdentifier());
      expect(existsSync(join(dataDir, 'base', '1', 'leftover'))).toBe(false);
      expect(existsSync(join(dataDir, '.creating'))).toBe(false);
    } finally {
      await db.close();
    }
  });

  it('is unpacked in this process when there is no creation script, and initdb runs when it cannot be read', async () => {
    const expected = await readyMadeIdentifier();
    const inProcess = await openPglite({ dataDir: tempDir('ie-ready-made-here-'), readyMade: source() });
    try {
      expect(await systemIdentifier(inProcess)).toBe(expected);
    } finally {
      await inProcess.close();
    }
    const missing = await openPglite({
      dataDir: tempDir('ie-ready-made-missing-'),
      createScript: builtScript(),
      readyMade: '/nonexistent/empty.tar.br',
    });
    try {
      expect(await systemIdentifier(missing)).not.toBe(expected);
    } finally {
      await missing.close();
    }
  });
});
