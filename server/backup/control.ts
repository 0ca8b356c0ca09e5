// The running server's side of `npm run backup` on the embedded database: a Unix socket in DATA_DIR
// (backup.sock, readable and writable by the server's own user only) that takes one line,
// {"to": "/absolute/folder"}, copies the database there (embedded.ts) and answers one line:
// {"holds": …} or {"error": "…"}. One copy at a time. PGlite opens its folder in one process only,
// so this is how another process gets a copy without stopping the server.
import { chmod, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { isAbsolute, join } from 'node:path';
import type { Database } from '../db/storage/adapter';
import { CONTROL_SOCKET, copyEmbedded } from './embedded';
import type { Holdings } from './holdings';

/** Unix socket paths are limited to 107 bytes on Linux. */
const MAX_SOCKET_PATH = 107;
/** The longest request line accepted. */
const MAX_LINE = 8 * 1024;

export const socketPath = (dataDir: string) => join(dataDir, CONTROL_SOCKET);

/** True when something answers on `path` (a running server), false when nothing does (a file left by a crash, or none). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Listens on DATA_DIR/backup.sock for backup requests; resolves with a function that stops
 * listening, or with undefined (and a warning) when the socket cannot be made.
 */
export async function serveBackups(
  db: Database,
  dataDir: string,
  warn: (message: string) => void,
): Promise<(() => Promise<void>) | undefined> {
  const path = socketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    warn(`backups: DATA_DIR's path is too long for its control socket (${path}); npm run backup works only with the server stopped.`);
    return undefined;
  }
  if (await answers(path)) {
    warn(`backups: another process answers on ${path}; npm run backup will talk to it, not to this server.`);
    return undefined;
  }
  await unlink(path).catch(() => {});
  let busy = false;
  const server: Server = createServer((socket) => {
    let line = '';
    socket.setEncoding('utf8');
    const answer = (body: { holds: Holdings } | { error: string }) => socket.end(`${JSON.stringify(body)}\n`);
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      line += chunk;
      if (line.length > MAX_LINE) return answer({ error: 'The request is too long.' });
      const end = line.indexOf('\n');
      if (end < 0) return;
      socket.removeAllListeners('data');
      let to: unknown;
      try {
        to = (JSON.parse(line.slice(0, end)) as { to?: unknown }).to;
      } catch {
        return answer({ error: 'The request is not JSON.' });
      }
      if (typeof to !== 'string' || !isAbsolute(to)) return answer({ error: 'Say where the copy goes: {"to": "/an/absolute/folder"}.' });
      if (busy) return answer({ error: 'A backup is being made already: wait for it to finish.' });
      busy = true;
      copyEmbedded(db, dataDir, to)
        .then(
          (holds) => answer({ holds }),
          (error: unknown) => answer({ error: (error as Error).message }),
        )
        .finally(() => (busy = false));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      void unlink(path).catch(() => {});
    });
}

/**
 * Asks the server running on `dataDir` for a copy in `to`: its holdings, or undefined when no
 * server answers there (the caller then copies the folder itself). Rejects with the server's reason.
 */
export async function askRunningServer(dataDir: string, to: string): Promise<Holdings | undefined> {
  const path = socketPath(dataDir);
  if (!(await answers(path))) return undefined;
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.once('error', (error) => reject(new Error(`The running server did not answer the backup request: ${error.message}`)));
    socket.once('end', () => {
      try {
        const body = JSON.parse(reply) as { holds?: Holdings; error?: string };
        if (body.holds) resolve(body.holds);
        else reject(new Error(body.error ?? 'The running server refused the backup.'));
      } catch {
        reject(new Error('The running server’s answer to the backup request could not be read.'));
      }
    });
    socket.write(`${JSON.stringify({ to })}\n`);
  });
}
