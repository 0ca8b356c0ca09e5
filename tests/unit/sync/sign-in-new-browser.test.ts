// A local-only Sign In on a new browser (issue 64, item 2): the browser holds no database, so no
// account (any email signs in, the spec), and its Sign In makes none and loads none of the data
// layer; the forum's first frame is marked for the member (an older build's posts here too: the
// frame shows them). A browser with a database checks its accounts as before.
import { beforeEach, describe, expect, it } from 'vitest';
import { readStoredSession } from '../../../src/db/members/session';
import { POSTS_KEY } from '../../../src/db/contracts';
import { databaseExists } from '../../../src/db/storage/database-exists';
import { endFirstFrame, firstFramePending, firstFrameSamplesAt, takeFirstFrame } from '../../../src/db/storage/first-frame';
import { createApi } from '../../../src/sync/api';
import { signIn, signOut, signUp } from '../../../src/sync/auth';
import { resetMode } from '../../../src/sync/mode';
import { ERRORS } from '../../../src/shared/errors';

/** A static host: its health answer is the app's page, not JSON. */
const staticHost = () =>
  createApi(async () => new Response('<!doctype html><title>app</title>', { headers: { 'content-type': 'text/html' } }));

beforeEach(() => {
  resetMode();
  endFirstFrame();
});

describe('Sign In on a new browser, local-only', () => {
  it('signs in without making the database, and marks the forum’s first frame for this member', async () => {
    const before = Date.now();
    const session = await signIn('Jane.Doe@Example.com', 'pass-1234', staticHost());
    expect(session).toEqual({ email: 'jane.doe@example.com', name: 'Jane Doe', role: 'user' });
    expect(readStoredSession()).toEqual(session);
    expect(await databaseExists()).toBe(false);
    expect(firstFramePending()).toBe(true);
    // Another member's /forum paints none; this member's does, dated from the sign-in.
    expect(takeFirstFrame('someone@example.com')).toBeUndefined();
    const at = takeFirstFrame('jane.doe@example.com');
    expect(at).toBeGreaterThanOrEqual(before);
    expect(firstFrameSamplesAt()).toBe(at);
    endFirstFrame();
    expect(firstFramePending()).toBe(false);
    // The session's database copy waited for the frame; it is written now (within this test).
    await expect.poll(() => databaseExists()).toBe(true);
  });

  it('an older build’s posts on the browser: the first frame too (it shows them)', async () => {
    localStorage.setItem(POSTS_KEY, '[]');
    expect(await databaseExists()).toBe(false);
    await signIn('jane.doe@example.com', 'pass-1234', staticHost());
    expect(readStoredSession()?.email).toBe('jane.doe@example.com');
    expect(await databaseExists()).toBe(false);
    expect(firstFramePending()).toBe(true);
  });

  it('a browser that holds the database checks its accounts: a wrong password is refused, and no first frame', async () => {
    const api = staticHost();
    await signUp('Jane Doe', 'jane.doe@example.com', 'the-right-one', api);
    expect(await databaseExists()).toBe(true);
    await signOut(api);
    await expect(signIn('jane.doe@example.com', 'a-wrong-one', api)).rejects.toMatchObject({ message: ERRORS.bad_credentials.message });
    expect(firstFramePending()).toBe(false);
    await signIn('jane.doe@example.com', 'the-right-one', api);
    expect(readStoredSession()?.email).toBe('jane.doe@example.com');
    expect(firstFramePending()).toBe(false);
  });
});
