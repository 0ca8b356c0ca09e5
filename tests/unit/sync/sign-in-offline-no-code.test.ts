// A device that went offline while /login was still loading the offline sign-in's code (its chunk
// is loaded on demand, src/sync/auth.ts): the sign-in says what it says on any new device, never the
// failed download (stop 72's CI: the multi-device case went offline between the two chunks).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ERRORS } from '../../../src/shared/errors';
import { createApi } from '../../../src/sync/api';
import { signIn } from '../../../src/sync/auth';
import { detectMode, resetMode } from '../../../src/sync/mode';
import { readStoredSession } from '../../../src/db/members/session';
import { startServer } from './test-server';

// The chunk cannot be fetched: the dynamic import rejects, as a browser's does offline.
vi.mock('../../../src/db/sync/offline-accounts', () => {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/offline-accounts.js');
});

describe('signing in offline before the offline sign-in code arrived', () => {
  beforeEach(() => resetMode());

  it('says a new device needs a connection, and signs nobody in', async () => {
    const server = await startServer();
    const api = createApi(server.device());
    expect(await detectMode(api)).toBe('connected');
    server.down = true;
    await expect(signIn('newcomer@example.com', 'newcomer-quiet-harbor-7419', api)).rejects.toMatchObject({
      code: 'offline_sign_in',
      message: ERRORS.offline_sign_in.message,
    });
    expect(readStoredSession()).toBeNull();
  });
});
