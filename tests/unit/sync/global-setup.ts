// Once per run, for the sync tests' in-process server: the data folder of an empty PGlite, dumped.
// A fresh PGlite runs initdb in WebAssembly (2–15 s); a clone of the dump starts in about 2 s. The
// dump depends only on PGlite's version, so it is kept in the temp folder and reused by later runs.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { readyMadeSource } from '../../../server/db/storage/ready-made';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The path of an empty PGlite data folder dumped as a tar (tests/unit/sync/test-server.ts loads it). */
    unitPgliteDump: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const manifest = new URL('../../../node_modules/@electric-sql/pglite/package.json', import.meta.url);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const path = join(tmpdir(), `insight-exchange-pglite-${version}.tar`);
  if (!existsSync(path)) {
    // The repository's ready-made empty database for this PGlite is that dump already (unpacked in
    // milliseconds, where initdb takes 3.5 s on a quiet machine); without one, initdb runs.
    const readyMade = readyMadeSource(version);
    let bytes: Buffer;
    if (existsSync(readyMade)) bytes = brotliDecompressSync(readFileSync(readyMade));
    else {
      const { PGlite } = await import('@electric-sql/pglite');
      const pglite = await PGlite.create();
      bytes = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
      await pglite.close();
    }
    // Written aside and renamed, so a run that stops half-way (or one beside it) never sees half a dump.
    const partial = `${path}.${process.pid}.part`;
    writeFileSync(partial, bytes);
    renameSync(partial, path);
  }
  project.provide('unitPgliteDump', path);
}
