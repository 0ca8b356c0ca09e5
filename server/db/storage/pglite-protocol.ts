// The messages between the server's thread and the embedded database's (pglite-worker.ts). Types only.

/** What the worker starts with (its workerData). */
export interface WorkerStart {
  dataDir?: string;
  /** A dumped data folder's bytes to start from (tests). */
  loadDataDir?: ArrayBuffer;
  startParams: string[];
  initDbStartParams: string[];
}

/** An engine's error as plain fields: never the statement's parameters nor PostgreSQL's `detail`. */
export interface WorkerError {
  message: string;
  code?: string;
  severity?: string;
  routine?: string;
  constraint?: string;
  table?: string;
  column?: string;
  query?: string;
  stack?: string;
}

export type ToWorker =
  /** One statement: alone (foreground or background), or in the open transaction `tx`. */
  | { op: 'query'; id: number; text: string; params: unknown[]; tx?: number; background?: boolean }
  /** Opens transaction `tx`: answered once it holds the connection. */
  | { op: 'begin'; id: number; tx: number; background?: boolean }
  /** Commits (or rolls back) transaction `tx`. */
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'listen'; id: number; channel: string }
  | { op: 'unlisten'; id: number; channel: string }
  /** Closes the database once the statements waiting have run. */
  | { op: 'close'; id: number };

export type FromWorker =
  | { opened: true }
  | { opened: false; error: WorkerError }
  /** The answer to request `id`: its rows (empty for begin, end, listen, close) or its error. */
  | { id: number; rows: unknown[] }
  | { id: number; error: WorkerError }
  /** A NOTIFY on a channel listened to. */
  | { channel: string; payload: string };
