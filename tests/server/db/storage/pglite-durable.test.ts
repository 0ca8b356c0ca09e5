// The embedded database's writes made durable (issue 43): PGlite's fsync does nothing on Node, so
// the worker syncs what it wrote before answering a commit. Watched here on a folder shaped like
// PGlite's: the WAL segments written since the last sync (a write just after one is not missed),
// pg_wal itself when a segment comes, and after a checkpoint (pg_control rewritten) the data files
// written since the last checkpoint's sync; nothing when nothing was written.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Durable } from '../../../../server/db/storage/pglite-durable';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder with two WAL segments, pg_control and one table file, all last written 10 s ago. */
function folder() {
  const dir = mkdtempSync(join(tmpdir(), 'ie-durable-'));
  made.push(dir);
  const path = (...parts: string[]) => join(dir, ...parts);
  for (const sub of ['pg_wal', 'global', join('base', '1')]) mkdirSync(path(sub), { recursive: true });
  const files = [
    path('pg_wal', '000000010000000000000001'),
    path('pg_wal', '000000010000000000000002'),
    path('global', 'pg_control'),
    path('base', '1', '1259'),
  ];
  const past = new Date(Date.now() - 10_000);
  for (const file of files) {
    writeFileSync(file, 'x');
    utimesSync(file, past, past);
  }
  return { dir, path };
}

describe('the embedded database’s writes made durable', () => {
  it('syncs the WAL written since the last sync, pg_wal when a segment comes, and a checkpoint’s data files', () => {
    const { dir, path } = folder();
    const synced: string[] = [];
    const durable = new Durable(dir, (file, dataOnly) => synced.push(`${dataOnly ? 'data' : 'full'} ${file.slice(dir.length + 1)}`));
    const sync = () => {
      synced.length = 0;
      durable.sync();
      return [...synced].sort();
    };

    // The first sync takes every segment, and the folder that lists them.
    expect(sync()).toEqual(['data pg_wal/000000010000000000000001', 'data pg_wal/000000010000000000000002', 'full pg_wal']);
    // Nothing written since: nothing synced (a read costs no sync).
    expect(sync()).toEqual([]);
    // A commit appended to the current segment: that segment, and again at once (a coarse clock).
    appendFileSync(path('pg_wal', '000000010000000000000002'), 'commit');
    expect(sync()).toEqual(['data pg_wal/000000010000000000000002']);
    expect(sync()).toEqual(['data pg_wal/000000010000000000000002']);
    // A new segment: it and pg_wal's listing.
    writeFileSync(path('pg_wal', '000000010000000000000003'), 'next');
    expect(sync()).toContain('full pg_wal');
    expect(sync()).not.toContain('full pg_wal');

    // A checkpoint rewrote pg_control: the data files (all of them, the first time) and their folders.
    appendFileSync(path('global', 'pg_control'), 'checkpoint');
    const checkpoint = sync();
    expect(checkpoint).toEqual(expect.arrayContaining(['data global/pg_control', 'data base/1/1259', 'full base/1', 'full global']));
    expect(checkpoint.filter((line) => line.includes('pg_wal/'))).toEqual(
      expect.arrayContaining(['data pg_wal/000000010000000000000002', 'data pg_wal/000000010000000000000003']),
    );
    // The next checkpoint: only the data files written since the last one's sync.
    const old = new Date(Date.now() - 10_000);
    utimesSync(path('base', '1', '1259'), old, old);
    writeFileSync(path('base', '1', '2619'), 'page');
    appendFileSync(path('global', 'pg_control'), 'again');
    const next = sync().filter((line) => line.startsWith('data base/'));
    expect(next).toEqual(['data base/1/2619']);
  });
});
