// The sync status a person reads: in the header (Synced / Syncing… / Offline, N changes waiting /
// Sync error with Retry) and in the storage panel (last sync, waiting changes). A tiny store with
// no dependencies, so the header can import it without pulling the sync engine into the first download.

export type SyncState = 'local' | 'synced' | 'syncing' | 'offline' | 'error';

export interface SyncStatus {
  /** `local` on a local-only device (no server): nothing to show. */
  state: SyncState;
  /** Operations made on this device that the server has not acknowledged yet. */
  waiting: number;
  /** Operations the server kept failing on, set aside on this device (sent again when the app next starts). */
  setAside?: number;
  /** When the last full sync (push and pull) succeeded. */
  lastSyncAt?: number;
  /** The sentence shown with `error`. */
  message?: string;
}

export interface SyncNotice {
  title: string;
  description: string;
}

type Listener = (status: SyncStatus) => void;
type NoticeListener = (notice: SyncNotice) => void;

let current: SyncStatus = { state: 'local', waiting: 0 };
const listeners = new Set<Listener>();
const noticeListeners = new Set<NoticeListener>();
let retry: (() => void) | undefined;

/** The status now (`local` until the sync engine has started and found a server). */
export function getSyncStatus(): SyncStatus {
  return current;
}

/** Merges a change into the status and tells every subscriber (only when something changed). */
export function setSyncStatus(change: Partial<SyncStatus>): void {
  const next = { ...current, ...change };
  if (next.state !== 'error') delete next.message;
  const same =
    (Object.keys(next) as (keyof SyncStatus)[]).every((key) => next[key] === current[key]) &&
    Object.keys(current).length === Object.keys(next).length;
  if (same) return;
  current = next;
  for (const listener of listeners) listener(current);
}

export function onSyncStatus(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Something a person should be told (a refused change that was undone). */
export function announce(notice: SyncNotice): void {
  for (const listener of noticeListeners) listener(notice);
}

export function onSyncNotice(listener: NoticeListener): () => void {
  noticeListeners.add(listener);
  return () => noticeListeners.delete(listener);
}

/** Set by the engine: what the Retry button does. */
export function setRetryHandler(handler: (() => void) | undefined): void {
  retry = handler;
}

/** Tries to sync now (the Retry button). */
export function retrySync(): void {
  retry?.();
}

/** Back to the starting state (tests). */
export function resetSyncStatus(): void {
  current = { state: 'local', waiting: 0 };
  retry = undefined;
}
