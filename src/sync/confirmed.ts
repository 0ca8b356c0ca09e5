// What a sign-in's answer lets the first sync skip (issue 44): the server's word on whose session
// this browser's cookie now carries (the sync's first check of the session, GET /api/session, takes
// it instead of asking again), and, on a device that has never pulled, the window's first page,
// asked for the moment the sign-in answers rather than after the sync's own start-up.

import type { Session } from '../db/types';
import type { ForumPage } from '../shared/protocol';

/** A window's first page: what the forum shows first (one page of its list, PAGE_SIZE), stored in a moment. */
export const WINDOW_FIRST_PAGE = 20;

/** How long a sign-in's answer stands in for the check, and its early page waits to be taken. */
const CONFIRMED_FOR_MS = 30_000;

/** One value left for `email`, taken once and only within CONFIRMED_FOR_MS. */
function oneShot<T>() {
  let held: { email: string; at: number; value: T } | undefined;
  return {
    put(email: string, value: T, now: number): void {
      held = { email, at: now, value };
    },
    take(email: string, now: number): T | undefined {
      const taken = held !== undefined && held.email === email && now - held.at < CONFIRMED_FOR_MS ? held.value : undefined;
      held = undefined;
      return taken;
    },
  };
}

const confirmed = oneShot<Session>();
const firstPage = oneShot<Promise<ForumPage>>();

/** The server just signed `user` in on this browser (its email, name and role as it answered). */
export function confirmSignedIn(user: Session, now = Date.now()): void {
  confirmed.put(user.email, { email: user.email, name: user.name, role: user.role }, now);
}

/** The member a sign-in just confirmed, when it is `email` (once: the next check asks the server). */
export function takeConfirmed(email: string, now = Date.now()): Session | undefined {
  return confirmed.take(email, now);
}

/** The window's first page, asked for `email` as the sign-in answered (its failure waits for the taker). */
export function askFirstPageEarly(email: string, ask: () => Promise<ForumPage>, now = Date.now()): void {
  const page = ask();
  page.catch(() => undefined);
  firstPage.put(email, page, now);
}

/** The first page asked early for `email`, if any (once). */
export function takeFirstPage(email: string, now = Date.now()): Promise<ForumPage> | undefined {
  return firstPage.take(email, now);
}
