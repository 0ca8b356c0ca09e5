// The device's passkeys (issue 63) against the real server in-process: the browser's prompt is
// @simplewebauthn/browser's, stood in for here by the server tests' software authenticator (real
// P-256 signatures), so the device's requests, the server's checks and adoptSignUp all run. Offline,
// nothing is sent and the sentence says a passkey needs the network; a cancelled prompt is its own code.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readStoredSession } from '../../../src/db/members/session';
import { createApi } from '../../../src/sync/api';
import { resetMode } from '../../../src/sync/mode';
import { addPasskey, listPasskeys, removePasskey, signInWithPasskey } from '../../../src/sync/passkeys';
import { ERRORS } from '../../../src/shared/errors';
import { SoftAuthenticator } from '../../server/support/authenticator';
import { ORIGIN, startServer } from './test-server';

const prompt = vi.hoisted(() => ({ cancel: false, authenticator: undefined as unknown }));

vi.mock('@simplewebauthn/browser', () => {
  const answer = (make: () => unknown) => {
    // A prompt the person dismissed: the browser's NotAllowedError, as the library passes it through.
    if (prompt.cancel)
      return Promise.reject(Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }));
    return Promise.resolve(make());
  };
  return {
    startRegistration: ({ optionsJSON }: { optionsJSON: never }) =>
      answer(() => (prompt.authenticator as SoftAuthenticator).register(optionsJSON)),
    startAuthentication: ({ optionsJSON }: { optionsJSON: never }) =>
      answer(() => (prompt.authenticator as SoftAuthenticator).assert(optionsJSON)),
  };
});

describe('passkeys on a connected device', () => {
  beforeEach(() => {
    resetMode();
    prompt.cancel = false;
    prompt.authenticator = new SoftAuthenticator(ORIGIN);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('a member adds a passkey on one device; another signs in with it (the device takes the member) and removes it', async () => {
    const server = await startServer();
    const phone = createApi(await server.signedInDevice('pat@example.com'));
    const added = await addPasskey(phone);
    expect(added).toMatchObject({ name: expect.any(String), lastUsedAt: null });
    expect(await listPasskeys(phone)).toEqual([added]);

    const tablet = createApi(server.device());
    expect(readStoredSession()).toBeNull();
    const session = await signInWithPasskey(tablet);
    expect(session).toMatchObject({ email: 'pat@example.com', role: 'user' });
    expect(readStoredSession()).toMatchObject({ email: 'pat@example.com' });
    expect((await listPasskeys(tablet))[0]!.lastUsedAt).toEqual(expect.any(Number));
    await removePasskey(added.id, tablet);
    expect(await listPasskeys(phone)).toEqual([]);
  });

  it('offline, nothing is sent and the sentence says a passkey needs the network; a cancelled prompt is passkey_cancelled', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    // The browser knows it is offline: not even the options are asked for.
    vi.stubGlobal('navigator', { onLine: false });
    await expect(signInWithPasskey(api)).rejects.toMatchObject({ code: 'offline_passkey', message: ERRORS.offline_passkey.message });
    vi.unstubAllGlobals();
    // It thought it was online, but the server could not be reached.
    server.down = true;
    await expect(signInWithPasskey(api)).rejects.toMatchObject({ code: 'offline_passkey' });
    expect(server.requests).toEqual([]);
    server.down = false;

    prompt.cancel = true;
    await expect(signInWithPasskey(api)).rejects.toMatchObject({ code: 'passkey_cancelled' });
    expect(server.requests).toEqual(['POST /api/passkeys/login/options']);
    expect(readStoredSession()).toBeNull();
  });
});
