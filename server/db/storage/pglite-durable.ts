// What PGlite wrote into its data folder, made durable (issue 43): PGlite's own fsync does nothing
// on Node (electric-sql/pglite#1107), so the worker (pglite-worker.ts) calls sync() before it answers
// a commit: the WAL segments written since the last sync are fdatasync'd, pg_wal itself when a
// segment came or went, and, after a checkpoint (pg_control rewritten), every data file written since
// the last sync. Self-contained like the worker (Node runs it from source in the tests).
import { closeSync, fdatasyncSync, fsyncSync, openSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/**
 * File times move in coarse steps (a kernel tick): a file whose time is within this of the last
 * sync is synced again, so a write just after a sync is never missed.
 */
const MTIME_SLACK_MS = 1_000;

/** fsync (or fdatasync) of one path; a file gone meanwhile (a recycled WAL segment) is skipped. */
export function syncPath(path: string, dataOnly: boolean): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (dataOnly) fdatasyncSync(fd);
    else fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A file's modification time, 0 when it is not there (yet). */
function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Makes what PGlite wrote into `dir` durable (see the top of this file). */
export class Durable {
  private lastSync = 0;
  private lastDataSync = 0;
  private segments = '';
  private controlTime = 0;
  private readonly dir: string;
  private readonly wal: string;
  private readonly control: string;

  private readonly syncFile: (path: string, dataOnly: boolean) => void;

  /** `syncFile`: how one file or folder is synced (tests watch it). */
  constructor(dir: string, syncFile = syncPath) {
    this.dir = dir;
    this.syncFile = syncFile;
    this.wal = join(dir, 'pg_wal');
    this.control = join(dir, 'global', 'pg_control');
    this.controlTime = mtimeOf(this.control);
  }

  sync(): void {
    const started = Date.now();
    const since = this.lastSync - MTIME_SLACK_MS;
    const names = readdirSync(this.wal).filter((name) => /^[0-9A-F]{24}$/u.test(name));
    for (const name of names) {
      const path = join(this.wal, name);
      let time: number;
      try {
        time = statSync(path).mtimeMs;
      } catch {
        continue;
      }
      if (time >= since) this.syncFile(path, true);
    }
    const listed = names.sort().join();
    if (listed !== this.segments) {
      this.syncFile(this.wal, false);
      this.segments = listed;
    }
    const controlTime = mtimeOf(this.control);
    if (controlTime !== this.controlTime) {
      this.syncDataFiles(this.dir, this.lastDataSync - MTIME_SLACK_MS);
      this.controlTime = controlTime;
      this.lastDataSync = started;
    }
    this.lastSync = started;
  }

  /** Every file under `dir` (but pg_wal, synced above) written since `since`, and its folder. */
  private syncDataFiles(dir: string, since: number): void {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== this.wal) this.syncDataFiles(path, since);
      } else if (entry.isFile()) {
        try {
          if (statSync(path).mtimeMs >= since) this.syncFile(path, true);
        } catch {
          // Gone meanwhile: nothing to sync.
        }
      }
    }
    this.syncFile(dir, false);
  }
}
