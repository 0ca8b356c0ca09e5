import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/db/core/schema';
import { readStoredSession } from '../../../src/db/accounts/session';
import { USER_KEY } from '../../../src/db/contracts';
import { createApi } from '../../../src/sync/api';
import { OFFLINE_SIGN_IN, signIn, signOut, signUp } from '../../../src/sync/auth';
import { detectMode, resetMode } from '../../../src/sync/mode';
import { DEFAULT_ADMIN_EMAIL } from '../../../src/shared/post-rules';
import { FakeServer } from './fake-server';

describe('accounts through the server', () => {
  beforeEach(() => resetMode());

  it('a static host (no JSON health) is local-only and signs in on this browser, as before', async () => {
    const api = createApi(async () => new Response('<!doctype html><title>app</title>', { headers: { 'content-type': 'text/html' } }));
    expect(await detectMode(api)).toBe('local');
    const session = await signIn('anyone@example.com', 'whatever', api);
    expect(session).toEqual({ email: 'anyone@example.com', name: 'Anyone', role: 'user' });
  });

  it('connected: signs in through the server; the stored user keeps its shape, no password or token', async () => {
    const server = new FakeServer();
    const api = createApi(server.device());
    await signUp('Jane Doe', 'Jane@Example.com ', 'pw-1', api);
    const stored = JSON.parse(localStorage.getItem(USER_KEY)!) as Record<string, unknown>;
    expect(stored).toEqual({ email: 'jane@example.com', name: 'Jane Doe', role: 'user' });
    // The same account on another device needs the same password.
    resetMode();
    const other = createApi(server.device());
    await expect(signIn('jane@example.com', 'wrong', other)).rejects.toThrow('Incorrect email or password.');
    await expect(signIn('jane@example.com', 'pw-1', other)).resolves.toMatchObject({ name: 'Jane Doe' });
  });

  it('the admin address cannot be claimed by signing up or in with another password', async () => {
    const api = createApi(new FakeServer().device());
    await expect(signUp('Mallory', DEFAULT_ADMIN_EMAIL, 'guess', api)).rejects.toThrow(
      'An account with this email already exists. Sign in instead.',
    );
    await expect(signIn(DEFAULT_ADMIN_EMAIL, 'guess', api)).rejects.toThrow('Incorrect email or password.');
    expect(readStoredSession()).toBeNull();
  });

  it('offline on a device that never signed this member in: says so plainly; a returning member gets in', async () => {
    const server = new FakeServer();
    const api = createApi(server.device());
    expect(await detectMode(api)).toBe('connected');
    server.down = true;
    await expect(signIn('new@example.com', 'pw', api)).rejects.toThrow(OFFLINE_SIGN_IN);
    server.down = false;
    await signIn('back@example.com', 'pw-2', api);
    // The verifier is written in the background; wait for it.
    await expect.poll(async () => Boolean((await db.accounts.get('back@example.com'))?.hash), { timeout: 20_000 }).toBe(true);
    await signOut(api);
    expect(readStoredSession()).toBeNull();
    server.down = true;
    await expect(signIn('back@example.com', 'wrong', api)).rejects.toThrow('Incorrect email or password.');
    await expect(signIn('back@example.com', 'pw-2', api)).resolves.toMatchObject({ email: 'back@example.com' });
  });

  it('a device that was connected stays connected when it starts offline', async () => {
    const server = new FakeServer();
    expect(await detectMode(createApi(server.device()))).toBe('connected');
    resetMode();
    server.down = true;
    expect(await detectMode(createApi(server.device()))).toBe('connected');
  });
});
