// The page's side of search: asks the search worker (shared by every tab where the browser has
// SharedWorker, else one per tab, else an in-process engine) for the ids of matching approved
// posts. Each call is answered on its own, so a caller can drop a late answer to an older query.
// The page watches the posts (Dexie) and tells the worker, which has no Dexie, to catch up.

import { SearchEngine } from './engine';
import { idbPostSource } from './idb-source';
import { watchPostChanges } from './watch';
import type { SearchRequest, SearchResponse } from './protocol';
import type { CategoryFilter } from '../types';

type Pending = { resolve: (ids: number[]) => void; reject: (error: Error) => void };

interface Channel {
  postMessage: (request: SearchRequest) => void;
  close: () => void;
}

let worker: Channel | undefined;
let local: SearchEngine | undefined;
let unwatch: (() => void) | undefined;
let sequence = 0;
const pending = new Map<number, Pending>();
const listeners = new Set<() => void>();

const notify = () => {
  for (const listener of listeners) listener();
};

function localEngine(): SearchEngine {
  local ??= new SearchEngine(idbPostSource(), notify);
  return local;
}

function failPending(message: string): void {
  for (const [, request] of pending) request.reject(new Error(message));
  pending.clear();
}

function receive(event: MessageEvent<SearchResponse>): void {
  const message = event.data;
  if (message.type === 'changed') {
    notify();
    return;
  }
  const request = pending.get(message.id);
  if (!request) return;
  pending.delete(message.id);
  if (message.type === 'result') request.resolve(message.ids);
  else request.reject(new Error(message.message));
}

function fallBack(): void {
  // The worker could not start (blocked, unsupported): search in the page instead.
  worker?.close();
  worker = undefined;
  failPending('The search worker stopped.');
  localEngine();
}

function openShared(): Channel | undefined {
  if (typeof SharedWorker === 'undefined') return undefined;
  const shared = new SharedWorker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'insight-search' });
  shared.port.onmessage = receive;
  shared.onerror = fallBack;
  shared.port.start();
  addEventListener('pagehide', () => shared.port.postMessage({ type: 'bye' } satisfies SearchRequest));
  return { postMessage: (request) => shared.port.postMessage(request), close: () => shared.port.close() };
}

function openDedicated(): Channel | undefined {
  if (typeof Worker === 'undefined') return undefined;
  const dedicated = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'insight-search' });
  dedicated.onmessage = receive;
  dedicated.onerror = fallBack;
  return { postMessage: (request) => dedicated.postMessage(request), close: () => dedicated.terminate() };
}

function connect(): void {
  unwatch ??= watchPostChanges(() => {
    worker?.postMessage({ type: 'refresh' });
    void local?.refresh();
  });
  if (worker || local) return;
  try {
    worker = openShared() ?? openDedicated();
  } catch {
    worker = undefined;
  }
  if (!worker) localEngine();
}

function send(request: SearchRequest): void {
  connect();
  worker?.postMessage(request);
}

/** Starts building the search index in the background (call after the first paint). */
export function warmSearchIndex(): void {
  send({ type: 'warm' });
  void local?.start().catch(() => undefined);
}

/** Ids of approved posts whose title or content contains the query (any case), newest first. */
export function searchApprovedPostIds(query: string, category: CategoryFilter = 'All'): Promise<number[]> {
  connect();
  if (!worker) return localEngine().search(query, category);
  sequence += 1;
  const id = sequence;
  return new Promise<number[]>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    send({ type: 'search', id, query, category });
  });
}

/** Subscribes to "the index changed" (a post was added, approved or rejected anywhere). */
export function onSearchIndexChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
