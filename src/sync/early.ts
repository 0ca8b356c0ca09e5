// Requests the first sync will make, sent before its code has loaded (issue 64, item 4). A signed-in
// page of a connected device syncs first thing: it checks the session (GET /api/session) and, on a
// device that has never pulled, asks for the forum's first page (GET /api/posts). Their answers
// used to be asked for only once the engine, the client and zod had loaded, some 25 files: on a
// fresh browser about 400 ms after the screen's own code, with the forum empty meanwhile. Sent here
// as soon as the device is known to be connected, their answers wait (unread, once, at most
// EARLY_FOR_MS) for the client's request of the same path (api.ts), which takes them instead of
// asking again: the same request, the same checks of the answer, counted once by the server.
// Nothing here reads an answer: whose session it is and what it may hold is decided by the engine's
// session check, then the window's pages, and for the first page also by ./early-page.ts, which
// reads a copy of both answers (peekEarly) to paint the forum before the engine has loaded.

import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../shared/protocol-version';

/** The init of every request of the client (api.ts): the caller's own (method, body, headers) over the shared ones. */
export function requestInit(init: RequestInit = {}): RequestInit {
  return {
    credentials: 'same-origin',
    cache: 'no-store',
    ...init,
    headers: {
      accept: 'application/json',
      [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
  };
}

/** What GET /api/posts is asked (the forum's pages, newest first). */
export interface ForumPageQuery {
  part?: 'newest' | 'kept';
  before?: number;
  limit: number;
  category?: string;
  after?: number;
}

/** The path of GET /api/posts for `query`. */
export function forumPagePath(query: ForumPageQuery): string {
  const params = new URLSearchParams({ part: query.part ?? 'newest', limit: String(query.limit) });
  if (query.before !== undefined) params.set('before', String(query.before));
  if (query.category !== undefined) params.set('category', query.category);
  if (query.after !== undefined) params.set('after', String(query.after));
  return `/api/posts?${params.toString()}`;
}

/** How long an early answer waits to be taken: the first sync starts within a second or two. */
export const EARLY_FOR_MS = 30_000;

const held = new Map<string, { at: number; response: Promise<Response>; copy?: Promise<Response> }>();

/** Sends GET `path` now (once while one waits); its answer waits for takeEarly. */
export function sendEarly(path: string, fetchImpl: typeof fetch = (input, init) => fetch(input, init), now = Date.now()): void {
  const waiting = held.get(path);
  if (waiting && now - waiting.at < EARLY_FOR_MS) return;
  const response = fetchImpl(path, requestInit());
  // A failure (offline) is the taker's to meet: it asks again.
  response.catch(() => undefined);
  held.set(path, { at: now, response });
}

/** The early answer to GET `path`, if one was sent within EARLY_FOR_MS (once). */
export function takeEarly(path: string, now = Date.now()): Promise<Response> | undefined {
  const waiting = held.get(path);
  held.delete(path);
  return waiting && now - waiting.at < EARLY_FOR_MS ? waiting.response : undefined;
}

/**
 * A copy of the early answer to GET `path` that waits to be taken, leaving the answer itself to its
 * taker (undefined when none waits). Asked for before anyone reads the answer: the copy is made as
 * it arrives, before a taker can read its body.
 */
export function peekEarly(path: string, now = Date.now()): Promise<Response> | undefined {
  const waiting = held.get(path);
  if (!waiting || now - waiting.at >= EARLY_FOR_MS) return undefined;
  if (!waiting.copy) {
    waiting.copy = waiting.response.then((answer) => answer.clone());
    // A failure (offline) is the reader's to meet, if it reads the copy at all.
    waiting.copy.catch(() => undefined);
  }
  return waiting.copy;
}

/** Drops every answer waiting (another member signed in, or none: they were asked for the one before). */
export function forgetEarly(): void {
  held.clear();
}
