// The page's side of search: asks the search worker (shared by every tab where the browser has
// SharedWorker, else one per tab, else an in-process engine) for the ids of matching approved
// posts. Each call is answered on its own, so a caller can drop a late answer to an older query.

import type { SearchEngine } from './engine';
import { watchPostChanges } from './watch';
import { isBulkWriting, onBulkWriteEnd } from '../storage/changes';
import type { SearchRequest, SearchResponse } from './protocol';
import { searchKey } from './text';
import type { CategoryFilter } from '../types';
import type { Found } from './search-index';

export type { Found } from './search-index';

type Pending = { resolve: (found: Found) => void; reject: (error: Error) => void };

/** A way to reach a search worker; `undefined` from an opener means "not available here". */
export interface Channel {
  postMessage: (request: SearchRequest) => void;
  close: () => void;
}

/** Opens a worker that answers through `receive`, and calls `fail` if it cannot run. */
export type ChannelOpener = (receive: (event: MessageEvent<SearchResponse>) => void, fail: () => void) => Channel | undefined;

/** A running search client: start() makes one, stop() ends its worker, engine and listeners. */
export interface SearchClient {
  /** Starts building the search index in the background. */
  warm(): void;
  /**
   * Ids of approved posts that match the query (the search language of shared/search-language.ts), newest
   * first, with the reply that matched for a post found only through one. `me` is the signed-in
   * member's email (for `is:mine`; nothing matches it without one).
   */
  search(query: string, category: CategoryFilter, me?: string | null): Promise<Found>;
  /** Closes the worker (or stops the in-page engine); questions still waiting are refused. */
  stop(): void;
}

const openShared: ChannelOpener = (receive, fail) => {
  if (typeof SharedWorker === 'undefined') return undefined;
  // extendedLifetime (Chromium 148+; ignored elsewhere): the worker outlives the page for a short while, so
  // the next page of the same tab (a reopened /forum, a link followed) finds its index loaded, instead of
  // tearing it down and reading every post again beside that page's first frame. It catches up at once:
  // the new page's watch asks it to read what changed (watch.ts).
  const shared = new SharedWorker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
    name: 'insight-search',
    extendedLifetime: true,
  } as WorkerOptions);
  shared.port.onmessage = receive;
  shared.onerror = fail;
  shared.port.start();
  const bye = () => shared.port.postMessage({ type: 'bye' } satisfies SearchRequest);
  addEventListener('pagehide', bye);
  return {
    postMessage: (request) => shared.port.postMessage(request),
    close: () => {
      removeEventListener('pagehide', bye);
      bye();
      shared.port.close();
    },
  };
};

const openDedicated: ChannelOpener = (receive, fail) => {
  if (typeof Worker === 'undefined') return undefined;
  const dedicated = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'insight-search' });
  dedicated.onmessage = receive;
  dedicated.onerror = fail;
  return { postMessage: (request) => dedicated.postMessage(request), close: () => dedicated.terminate() };
};

const OPENERS: ChannelOpener[] = [openShared, openDedicated];

/**
 * Starts a search client that tells `onChange` when the index changed (a post was added, approved
 * or rejected anywhere). The worker opens at the first question; all state lives in this object.
 */
export function startSearchClient(onChange: () => void, openers: ChannelOpener[] = OPENERS): SearchClient {
  const state = {
    worker: undefined as Channel | undefined,
    // The in-page engine, where no worker runs (its code loads only then).
    local: undefined as Promise<SearchEngine> | undefined,
    sequence: 0,
    pending: new Map<number, Pending>(),
    stopped: false,
    // The worker has no Dexie: the page watches the posts and tells it to catch up.
    unwatch: undefined as (() => void) | undefined,
    // During this page's import the index catches up once, at its end, not after every chunk.
    held: false,
    unhold: undefined as (() => void) | undefined,
  };

  const localEngine = (): Promise<SearchEngine> =>
    (state.local ??= Promise.all([import('./engine'), import('./idb-source')]).then(
      ([{ SearchEngine }, { idbPostSource }]) => new SearchEngine(idbPostSource(), onChange),
      (error: unknown) => {
        // Its code could not be fetched: the next question tries again.
        state.local = undefined;
        throw error;
      },
    ));

  const failPending = (message: string): void => {
    for (const [, request] of state.pending) request.reject(new Error(message));
    state.pending.clear();
  };

  const receive = (event: MessageEvent<SearchResponse>): void => {
    const message = event.data;
    if (message.type === 'changed') {
      onChange();
      return;
    }
    const request = state.pending.get(message.id);
    if (!request) return;
    state.pending.delete(message.id);
    if (message.type === 'result') request.resolve({ ids: message.ids, replies: message.replies ?? {} });
    else request.reject(new Error(message.message));
  };

  const fallBack = (): void => {
    // The worker could not start (blocked, unsupported): search in the page instead.
    state.worker?.close();
    state.worker = undefined;
    failPending('The search worker stopped.');
    if (!state.stopped) void localEngine().catch(() => undefined);
  };

  const connect = (): void => {
    if (state.stopped) return;
    const refresh = (): void => {
      state.held = false;
      state.worker?.postMessage({ type: 'refresh' });
      void state.local?.then((engine) => engine.refresh()).catch(() => undefined);
    };
    state.unwatch ??= watchPostChanges(() => {
      if (isBulkWriting()) state.held = true;
      else refresh();
    });
    state.unhold ??= onBulkWriteEnd(() => {
      if (state.held) refresh();
    });
    if (state.worker || state.local) return;
    try {
      for (const open of openers) {
        state.worker = open(receive, fallBack);
        if (state.worker) break;
      }
    } catch {
      state.worker = undefined;
    }
    if (!state.worker) void localEngine().catch(() => undefined);
  };

  const send = (request: SearchRequest): void => {
    connect();
    state.worker?.postMessage(request);
  };

  return {
    warm() {
      send({ type: 'warm' });
      void state.local?.then((engine) => engine.start()).catch(() => undefined);
    },
    search(query, category, me = null) {
      if (state.stopped) return Promise.reject(new Error('Search has stopped.'));
      connect();
      if (!state.worker) return localEngine().then((engine) => engine.find(query, category, me));
      state.sequence += 1;
      const id = state.sequence;
      return new Promise<Found>((resolve, reject) => {
        state.pending.set(id, { resolve, reject });
        send({ type: 'search', id, query, category, me });
      });
    },
    stop() {
      state.stopped = true;
      state.unwatch?.();
      state.unhold?.();
      state.unwatch = state.unhold = undefined;
      state.worker?.close();
      state.worker = undefined;
      void state.local?.then((engine) => engine.stop()).catch(() => undefined);
      state.local = undefined;
      failPending('Search has stopped.');
    },
  };
}

// This page's client, made at the first question, whoever listens for index changes, and the
// last question asked (with its answer to come), until the index changes.
const page = {
  client: undefined as SearchClient | undefined,
  listeners: new Set<() => void>(),
  last: undefined as { key: string; answer: Promise<Found> } | undefined,
};

function pageClient(): SearchClient {
  page.client ??= startSearchClient(() => {
    // An answer from before the change may miss what changed: the next question is asked again.
    page.last = undefined;
    for (const listener of page.listeners) listener();
  });
  return page.client;
}

/** Starts building the search index in the background (call after the first paint). */
export function warmSearchIndex(): void {
  pageClient().warm();
}

/**
 * Ids of approved posts that match the query (free text, phrases and filters of the search language,
 * shared/search-language.ts), newest first. `me`: the signed-in member's email, for `is:mine`.
 */
export async function searchApprovedPostIds(query: string, category: CategoryFilter = 'All', me: string | null = null): Promise<number[]> {
  return (await searchApprovedPosts(query, category, me)).ids;
}

/** As searchApprovedPostIds, with the reply each post found only through one of its replies was found by. */
export function searchApprovedPosts(query: string, category: CategoryFilter = 'All', me: string | null = null): Promise<Found> {
  // The same question twice in a row, the index unchanged (asked at the keystroke, then by the list
  // once it renders): one search, one answer.
  const key = `${searchKey(category, query)}\u0000${me ?? ''}`;
  if (page.last?.key === key) return page.last.answer;
  const answer = pageClient().search(query, category, me);
  const last = { key, answer };
  page.last = last;
  // A refused question is asked again next time.
  answer.catch(() => {
    if (page.last === last) page.last = undefined;
  });
  return answer;
}

/** Subscribes to "the index changed" (a post was added, approved or rejected anywhere). */
export function onSearchIndexChange(listener: () => void): () => void {
  page.listeners.add(listener);
  return () => page.listeners.delete(listener);
}

/** Stops this page's client (its worker or engine); the next question starts a new one. */
export function stopSearchClient(): void {
  page.client?.stop();
  page.client = undefined;
  page.last = undefined;
}
