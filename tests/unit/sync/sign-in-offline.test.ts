// Signing in on a new device while offline (issue 63, item 4): the password, the organisation's
// sign-in and a passkey each say plainly, in the same words, that they need a connection, and the two
// that only the server can do send nothing when the browser already knows it is offline.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERRORS } from '../../../src/shared/errors';
import { createApi } from '../../../src/sync/api';
import { signIn } from '../../../src/sync/auth';
import { startOrganisationSignIn } from '../../../src/sync/sso';
import { detectMode, resetMode } from '../../../src/sync/mode';
import { readStoredSession } from '../../../src/db/members/session';
import { startServer } from './test-server';

describe('signing in on a new device while offline', () => {
  beforeEach(() => resetMode());
  afterEach(() => vi.unstubAllGlobals());

  it('every way says it in the same words: "You\'re offline. … needs a connection."', () => {
    for (const code of ['offline_sign_in', 'offline_sso', 'offline_passkey', 'offline_two_step'] as const) {
      expect(ERRORS[code].title).toBe("You're offline");
      expect(ERRORS[code].message).toMatch(/^You're offline\. .+ needs a connection\.$/);
    }
  });

  it('the organisation: offline, says offline_sso and stays on the page; online, leaves for /api/oidc/start with the way back', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    const go = vi.fn();
    // A device that has met the server (the password's offline path needs to know it is connected).
    expect(await detectMode(api)).toBe('connected');
    server.down = true;
    await expect(signIn('new@example.com', 'new-quiet-harbor-7419', api)).rejects.toThrow(ERRORS.offline_sign_in.message);
    await expect(startOrganisationSignIn('/forum', api, go)).rejects.toMatchObject({
      code: 'offline_sso',
      message: ERRORS.offline_sso.message,
    });
    expect(go).not.toHaveBeenCalled();
    expect(readStoredSession()).toBeNull();
    // The browser knows it is offline: nothing is sent.
    server.down = false;
    vi.stubGlobal('navigator', { onLine: false });
    server.requests.length = 0;
    await expect(startOrganisationSignIn('/forum', api, go)).rejects.toMatchObject({ code: 'offline_sso' });
    expect(server.requests).toEqual([]);
    expect(go).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
    await startOrganisationSignIn('/posts/7?from=share', api, go);
    expect(go).toHaveBeenCalledExactlyOnceWith('/api/oidc/start?return=%2Fposts%2F7%3Ffrom%3Dshare');
    // A confirmation (Delete my account without a password): the provider is asked to authenticate again.
    go.mockClear();
    await startOrganisationSignIn('/profile?delete=confirm', api, go, true);
    expect(go).toHaveBeenCalledExactlyOnceWith('/api/oidc/start?return=%2Fprofile%3Fdelete%3Dconfirm&confirm=1');
  });
});
