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

let confirmed: { user: Session; at: number } | undefined;
let firstPage: { email: string; at: number; page: Promise<ForumPage> } | undefined;

/** The server just signed `user` in on this browser (its email, name and role as it answered). */
export function confirmSignedIn(user: Session, now = Date.now()): void {
  confirmed = { user: { email: user.email, name: user.name, role: user.role }, at: now };
}

/** The member a sign-in just confirmed, when it is `email` (once: the next check asks the server). */
export function takeConfirmed(email: string, now = Date.now()): Session | undefined {
  const taken =
    confirmed !== undefined && confirmed.user.email === email && now - confirmed.at < CONFIRMED_FOR_MS ? confirmed.user : undefined;
  confirmed = undefined;
  return taken;
}

/** The window's first page, asked for `email` as the sign-in answered (its failure waits for the taker). */
export function askFirstPageEarly(email: string, ask: () => Promise<ForumPage>, now = Date.now()): void {
  const page = ask();
  page.catch(() => undefined);
  firstPage = { email, at: now, page };
}

/** The first page asked early for `email`, if any (once). */
export function takeFirstPage(email: string, now = Date.now()): Promise<ForumPage> | undefined {
  const taken = firstPage !== undefined && firstPage.email === email && now - firstPage.at < CONFIRMED_FOR_MS ? firstPage.page : undefined;
  firstPage = undefined;
  return taken;
}
