// The offline sign-in's verifier is made after the sign-in's path (issue 64, item 5): its 600,000
// rounds of PBKDF2 start once the forum's first posts are painted, never beside the sign-in's answer,
// the first sync and the first paint. Log out before then makes it first (a member who signed in here
// online can still sign in offline right after), and a two-step account never gets one.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { readStoredSession } from '../../../src/db/members/session';
import { FIRST_POSTS_MARK, markFirstPostsShown } from '../../../src/db/storage/idle';
import {
  finishWaitingVerifiers,
  forgetVerifierForTwoStep,
  offlineSession,
  rememberVerifierLater,
  usesTwoStep,
  verifierWaiting,
} from '../../../src/db/sync/offline-accounts';
import { createApi } from '../../../src/sync/api';
import { signIn, signOut } from '../../../src/sync/auth';
import { resetMode } from '../../../src/sync/mode';
import { ERRORS } from '../../../src/shared/errors';
import { PASSWORD, startServer } from './test-server';

/** The PBKDF2 keys imported so far (each verifier made or checked imports one). */
function countPbkdf2() {
  const importKey = vi.spyOn(crypto.subtle, 'importKey');
  return () => importKey.mock.calls.filter((call) => call[2] === 'PBKDF2').length;
}

/** A schedule the test runs by hand. */
function byHand() {
  const runs: (() => void)[] = [];
  return { schedule: (run: () => void) => (runs.push(run), () => undefined), run: () => runs.forEach((run) => run()) };
}

describe('the offline verifier, made after the sign-in’s path', () => {
  beforeEach(() => {
    resetMode();
    performance.clearMarks(FIRST_POSTS_MARK);
  });
  afterEach(async () => {
    await finishWaitingVerifiers();
    vi.restoreAllMocks();
  });

  it('a connected sign-in hashes nothing on the device until the first posts are painted; then an offline sign-in works', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    await server.account('later@example.com');
    const pbkdf2 = countPbkdf2();
    await signIn('later@example.com', PASSWORD, api);
    expect(readStoredSession()).toMatchObject({ email: 'later@example.com' });
    // Before: the PBKDF2 started here, beside the first sync and the first paint.
    expect(pbkdf2()).toBe(0);
    expect(verifierWaiting('later@example.com')).toBe(true);
    expect((await db.accounts.get('later@example.com'))?.hash).toBeUndefined();

    markFirstPostsShown();
    await expect.poll(async () => Boolean((await db.accounts.get('later@example.com'))?.hash), { timeout: 20_000 }).toBe(true);
    expect(pbkdf2()).toBe(1);
    expect(verifierWaiting('later@example.com')).toBe(false);
    await signOut(api);
    server.down = true;
    await expect(signIn('later@example.com', PASSWORD, api)).resolves.toMatchObject({ email: 'later@example.com' });
  });

  it('Log out before it was made makes it first: offline sign-in works right after, and a wrong password is refused', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    await server.account('quick.exit@example.com');
    await signIn('quick.exit@example.com', PASSWORD, api);
    expect(verifierWaiting('quick.exit@example.com')).toBe(true);
    await expect(signOut(api)).resolves.toEqual({ signedOut: true });
    // Stored when Log out returns, with no wait.
    expect((await db.accounts.get('quick.exit@example.com'))?.hash).toBeTruthy();
    expect(verifierWaiting('quick.exit@example.com')).toBe(false);
    server.down = true;
    await expect(signIn('quick.exit@example.com', 'wrong-password', api)).rejects.toThrow(ERRORS.bad_credentials.message);
    await expect(signIn('quick.exit@example.com', PASSWORD, api)).resolves.toMatchObject({ email: 'quick.exit@example.com' });
  });

  it('made when its schedule runs, once; a later sign-in’s password replaces a waiting one', async () => {
    const first = byHand();
    const second = byHand();
    const session = { email: 'twice@example.com', name: 'Twice', role: 'user' as const };
    rememberVerifierLater(session, 'old-password', first.schedule);
    rememberVerifierLater(session, 'new-password', second.schedule);
    first.run();
    await finishWaitingVerifiers();
    // The first one was replaced: its schedule made nothing, and Log out's finish made the second.
    expect(await db.accounts.get('twice@example.com')).toMatchObject({ hash: expect.any(String) });
    expect(await offlineSession('twice@example.com', 'old-password')).toBeNull();
    expect(await offlineSession('twice@example.com', 'new-password')).toMatchObject({ email: 'twice@example.com' });
    const pbkdf2 = countPbkdf2();
    second.run();
    second.run();
    await finishWaitingVerifiers();
    expect(pbkdf2()).toBe(0); // made already by finishWaitingVerifiers: the schedule's late call does nothing
  });

  it('two-step: a waiting verifier is dropped, never made, and the account stays marked', async () => {
    const later = byHand();
    rememberVerifierLater({ email: 'guarded@example.com', name: 'Guarded', role: 'user' }, 'its-password', later.schedule);
    await forgetVerifierForTwoStep('guarded@example.com');
    expect(verifierWaiting('guarded@example.com')).toBe(false);
    later.run();
    await finishWaitingVerifiers();
    expect((await db.accounts.get('guarded@example.com'))?.hash).toBeUndefined();
    expect(await usesTwoStep('guarded@example.com')).toBe(true);
    expect(await offlineSession('guarded@example.com', 'its-password')).toBeNull();
  });

  it('two-step: one being made is let finish, then the account is marked and its hash goes', async () => {
    const later = byHand();
    rememberVerifierLater({ email: 'racing@example.com', name: 'Racing', role: 'user' }, 'its-password', later.schedule);
    later.run();
    expect(verifierWaiting('racing@example.com')).toBe(true);
    await forgetVerifierForTwoStep('racing@example.com');
    await finishWaitingVerifiers();
    expect((await db.accounts.get('racing@example.com'))?.hash).toBeUndefined();
    expect(await usesTwoStep('racing@example.com')).toBe(true);
  });
});
