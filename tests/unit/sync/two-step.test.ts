// Two-step verification on the device against the real server (issue 63): a right password of an
// account with it on signs nobody in but asks for a code; the device keeps no offline verifier for
// such an account (the one it had goes), so an offline try says it needs the network instead of
// letting the password alone in; the code, computed here from the key, signs in as a password does.
import { beforeEach, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { db } from '../../../src/db/storage/schema';
import { readStoredSession } from '../../../src/db/members/session';
import { createApi } from '../../../src/sync/api';
import { signIn, signOut } from '../../../src/sync/auth';
import { verifyTwoStep } from '../../../src/sync/two-step';
import { resetMode } from '../../../src/sync/mode';
import { ERRORS } from '../../../src/shared/errors';
import { PASSWORD, startServer } from './test-server';

describe('two-step verification on a connected device', () => {
  beforeEach(() => resetMode());

  it('the password asks for a code; no offline verifier is kept, so offline says it needs the network; the code signs in', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    const email = 'two.step@example.com';
    await server.account(email);
    // Signed in here before, with the password alone: a verifier is kept for an offline sign-in.
    await signIn(email, PASSWORD, api);
    await expect.poll(async () => Boolean((await db.accounts.get(email))?.hash), { timeout: 20_000 }).toBe(true);
    await signOut(api);

    const secret = new Secret({ size: 20 }).base32;
    await server.db.query('UPDATE users SET totp_secret = $2, totp_enabled_at = $3 WHERE email = $1', [email, secret, Date.now()]);
    await expect(signIn(email, PASSWORD, api)).rejects.toMatchObject({ code: 'two_step_needed' });
    expect(readStoredSession()).toBeNull();
    expect((await db.accounts.get(email))?.hash).toBeUndefined();

    server.down = true;
    await expect(signIn(email, PASSWORD, api)).rejects.toThrow(ERRORS.offline_two_step.message);
    await expect(verifyTwoStep({ code: '123456' }, api)).rejects.toMatchObject({ code: 'offline_two_step' });
    expect(readStoredSession()).toBeNull();
    server.down = false;

    await expect(signIn(email, PASSWORD, api)).rejects.toMatchObject({ code: 'two_step_needed' });
    const session = await verifyTwoStep({ code: TOTP.generate({ secret: Secret.fromBase32(secret) }) }, api);
    expect(session).toMatchObject({ email, role: 'user' });
    expect(readStoredSession()).toMatchObject({ email });
    expect(await api.currentUser()).toMatchObject({ email });
    expect((await db.accounts.get(email))?.hash).toBeUndefined();
  });
});
