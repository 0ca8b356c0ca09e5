// The forum's first page painted from the early answers (issue 64, item 4). A signed-in page of a
// connected device that has never pulled sends GET /api/session and GET /api/posts as soon as it
// knows its mode (./early.ts); the engine that takes their answers loads after some 25 files, and
// zod builds every operation's schema as they load. Here a copy of the two answers is read with the
// first page's own schemas (shared/protocol-page.ts), and the page is stored as the engine would
// store it (storeForumPage, its change head): the forum's live list paints it while the engine
// still loads. The engine then takes the same answers, checks the session again and stores the
// same page, which changes nothing.
//
// Who may see it is decided as the engine decides it: the page is stored only when the server's
// answer names the member whose session this device holds, still the same member once the page
// has come, on a device that holds no other member's data (storeForumPage's owner check) and has
// not pulled since (beforePull). Anything else stores nothing and leaves the page to the engine.

import { readStoredSession } from '../db/members/session';
import { storeForumPage } from '../db/sync/window-store';
import { forumPageSchema, sessionResponseSchema } from '../shared/protocol-page';

/** Reads an answer's JSON when it is a success, else undefined. */
async function bodyOf(answer: Promise<Response>): Promise<unknown> {
  const response = await answer;
  return response.ok ? response.json() : undefined;
}

/**
 * Stores the forum's first page for `email` from copies of the early answers to GET /api/session
 * (`session`) and GET /api/posts (`page`). True when it stored posts; false when it stored nothing
 * (an answer refused or failed, the session someone else's, the device switched or pulled meanwhile).
 */
export async function storeEarlyPage(email: string, session: Promise<Response>, page: Promise<Response>): Promise<boolean> {
  try {
    const confirmed = sessionResponseSchema.safeParse(await bodyOf(session));
    if (!confirmed.success || confirmed.data.user.email !== email) return false;
    const parsed = forumPageSchema.safeParse(await bodyOf(page));
    if (!parsed.success || readStoredSession()?.email !== email) return false;
    return (await storeForumPage(parsed.data, email, { head: parsed.data.cursor, beforePull: true })) > 0;
  } catch {
    // Offline, an answer that is not JSON, storage refused: the engine asks and stores as before.
    return false;
  }
}
