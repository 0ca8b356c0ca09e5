// Two-step verification on the device against the real server (issue 63): a right password of an
// account with it on signs nobody in but asks for a code; the device keeps no offline verifier for
// such an account (the one it had goes), so an offline try says it needs the network instead of
// letting the password alone in; the code, computed here from the key, signs in as a password does.
// A device that kept a verifier and is still signed in forgets it at its next sync once two-step
// verification was turned on from another device (the pull says `twoStep`), before any online sign-in.
import { beforeEach, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { db } from '../../../src/db/storage/schema';
import { readStoredSession } from '../../../src/db/members/session';
import { createApi } from '../../../src/sync/api';
import { signIn, signOut } from '../../../src/sync/auth';
import { verifyTwoStep } from '../../../src/sync/two-step';
import { resetMode } from '../../../src/sync/mode';
import { SyncEngine } from '../../../src/sync/engine';
import { twoStepSetupSchema } from '../../../src/shared/two-step';
import { z } from 'zod';
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

  it('turned on from another device: this device, still signed in, forgets its verifier at its next sync; offline then says it needs the network', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    const email = 'two.step.elsewhere@example.com';
    await server.account(email);
    // Device A signs in with the password: a verifier is kept for an offline sign-in here.
    await signIn(email, PASSWORD, api);
    await expect.poll(async () => Boolean((await db.accounts.get(email))?.hash), { timeout: 20_000 }).toBe(true);
    const engine = new SyncEngine({
      api,
      session: () => readStoredSession() ?? null,
      isOnline: () => true,
      setTimer: () => undefined,
      clearTimer: () => undefined,
      random: () => 1,
    });
    await engine.sync();
    // Nothing told this device of two-step verification yet: the verifier stays.
    expect((await db.accounts.get(email))?.hash).toBeDefined();

    // Device B (the member's phone) turns two-step verification on, as Profile does.
    const phone = await server.member(email);
    const setup = await phone.api.send!('POST', '/api/account/two-step/setup', {}, twoStepSetupSchema);
    const code = TOTP.generate({ secret: Secret.fromBase32(setup.key.replace(/\s+/g, '')) });
    await phone.api.send!('POST', '/api/account/two-step/enable', { code }, z.object({ recoveryCodes: z.array(z.string()) }));

    // Device A syncs (a focus, a poke): the pull says two-step is on, and the verifier goes.
    await engine.sync();
    const kept = await db.accounts.get(email);
    expect(kept?.hash).toBeUndefined();
    expect(kept?.twoStep).toBe(true);

    // Signed out, then offline: the password alone no longer signs in; the device says why.
    await signOut(api, { force: true });
    server.down = true;
    await expect(signIn(email, PASSWORD, api)).rejects.toMatchObject({
      code: 'offline_two_step',
      message: ERRORS.offline_two_step.message,
    });
    expect(readStoredSession()).toBeNull();
  });
});
