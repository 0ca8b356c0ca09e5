// The page's side of search: asks the search worker (or, where workers are unavailable, an
// in-process engine) for the ids of matching approved posts. Each call is answered on its own,
// so a caller can drop a late answer to an older query.

import { db } from './schema';
import { SearchEngine } from './search-engine';
import type { SearchRequest, SearchResponse } from './search-protocol';
import type { CategoryFilter } from './types';

type Pending = { resolve: (ids: number[]) => void; reject: (error: Error) => void };

let worker: Worker | undefined;
let local: SearchEngine | undefined;
let sequence = 0;
const pending = new Map<number, Pending>();
const listeners = new Set<() => void>();

const notify = () => {
  for (const listener of listeners) listener();
};

function localEngine(): SearchEngine {
  local ??= new SearchEngine(db, notify);
  return local;
}

function failPending(message: string): void {
  for (const [, request] of pending) request.reject(new Error(message));
  pending.clear();
}

function connect(): void {
  if (worker || local) return;
  if (typeof Worker === 'undefined') {
    localEngine();
    return;
  }
  try {
    worker = new Worker(new URL('./search-worker.ts', import.meta.url), { type: 'module', name: 'insight-search' });
  } catch {
    localEngine();
    return;
  }
  worker.onmessage = (event: MessageEvent<SearchResponse>) => {
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
  };
  worker.onerror = () => {
    // The worker could not start (e.g. blocked): search in the page instead.
    worker?.terminate();
    worker = undefined;
    failPending('The search worker stopped.');
    localEngine();
  };
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
