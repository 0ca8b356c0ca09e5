import { describe, expect, it, vi } from 'vitest';
import { signIn, signOut, signUp } from '../../../../src/db/members/accounts';
import { db } from '../../../../src/db/storage/schema';
import { readSessionCopy } from '../../../../src/db/members/session-copy';
import { handleExternalSessionChange, onSessionChange, readSession, readStoredSession } from '../../../../src/db/members/session';
import { makeSession, nameFromEmail, roleFor } from '../../../../src/db/members/session-rules';
import { USER_KEY } from '../../../../src/db/contracts';
import type { Session } from '../../../../src/db/types';
import { type MemoryStorage } from '../../memory-storage';

const stored = () => JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as Record<string, unknown> | null;

describe('the admin rule', () => {
  it('gives admin exactly to the admin address, trimmed and case-insensitive', () => {
    expect(roleFor('admin@insightexchange.app')).toBe('admin');
    expect(roleFor('  ADMIN@InsightExchange.App \n')).toBe('admin');
    expect(roleFor('admin@insightexchange.app.evil.com')).toBe('user');
    expect(roleFor('xadmin@insightexchange.app')).toBe('user');
    expect(roleFor('someone@example.com')).toBe('user');
  });

  it('ignores a role written into storage by hand', () => {
    localStorage.setItem(USER_KEY, JSON.stringify({ email: 'member@example.com', name: 'M', role: 'admin' }));
    expect(readStoredSession()).toEqual({ email: 'member@example.com', name: 'M', role: 'user' });
  });
});

describe('nameFromEmail', () => {
  it('turns the local part into words', () => {
    expect(nameFromEmail('jane.doe@example.com')).toBe('Jane Doe');
    expect(nameFromEmail('MARK_o-neil+forum@x.io')).toBe('Mark O Neil Forum');
    expect(nameFromEmail('1234@x.io')).toBe('Member');
  });
});

describe('signIn', () => {
  it('rejects missing fields with the catalogue message and stores nothing', async () => {
    await expect(signIn('', 'pw')).rejects.toMatchObject({ title: 'Error', message: 'Please enter email and password.' });
    await expect(signIn('a@b.co', '')).rejects.toMatchObject({ message: 'Please enter email and password.' });
    expect(localStorage.getItem(USER_KEY)).toBeNull();
  });

  it('signs in an unknown email with a derived name, as user, without the password', async () => {
    const session = await signIn('  Jane.Doe@Example.com ', 'hunter2');
    expect(session).toEqual({ email: 'jane.doe@example.com', name: 'Jane Doe', role: 'user' });
    expect(stored()).toEqual({ email: 'jane.doe@example.com', name: 'Jane Doe', role: 'user' });
    expect(JSON.stringify(localStorage.getItem(USER_KEY))).not.toContain('hunter2');
  });

  it('makes the admin address an admin whatever its case and spacing', async () => {
    const session = await signIn(' Admin@InsightExchange.APP ', 'pw');
    expect(session.role).toBe('admin');
    expect(stored()?.role).toBe('admin');
  });

  it('restores the name given at sign-up on this browser', async () => {
    await signUp('Dana Whitfield', 'dana@example.com', 'correct horse');
    signOut();
    const session = await signIn('DANA@example.com', 'correct horse');
    expect(session.name).toBe('Dana Whitfield');
  });

  it('never skips the password check because IndexedDB failed for a moment', async () => {
    await signUp('Dana', 'dana@example.com', 'correct horse');
    signOut();
    const get = vi
      .spyOn(db.accounts, 'get')
      .mockImplementation(() => Promise.reject(Object.assign(new Error('transient'), { name: 'UnknownError' })) as never);
    try {
      await expect(signIn('dana@example.com', 'wrong')).rejects.toMatchObject({ code: 'storage_unavailable' });
      expect(get).toHaveBeenCalled();
      expect(localStorage.getItem(USER_KEY)).toBeNull();
    } finally {
      get.mockRestore();
    }
  });

  it('checks the password of an account created on this browser', async () => {
    await signUp('Dana', 'dana@example.com', 'correct horse');
    signOut();
    await expect(signIn('dana@example.com', 'wrong')).rejects.toMatchObject({
      title: 'Error',
      message: 'Incorrect email or password.',
    });
    expect(localStorage.getItem(USER_KEY)).toBeNull();
  });
});

describe('signUp', () => {
  it('needs all fields, with the catalogue message', async () => {
    await expect(signUp('', 'a@b.co', 'pw')).rejects.toMatchObject({ title: 'Error', message: 'Please fill all fields.' });
    expect(await db.accounts.count()).toBe(0);
  });

  it('stores a salted PBKDF2 hash, never the password, and no secret in localStorage', async () => {
    await signUp('Dana', 'Dana@Example.com', 'correct horse battery');
    const account = await db.accounts.get('dana@example.com');
    expect(account).toMatchObject({ email: 'dana@example.com', name: 'Dana' });
    expect(account?.iterations).toBeGreaterThanOrEqual(600_000);
    expect(account?.salt).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(JSON.stringify(account)).not.toContain('correct horse');
    const everything = Array.from({ length: localStorage.length }, (_, i) => {
      const key = localStorage.key(i) ?? '';
      return `${key}=${localStorage.getItem(key) ?? ''}`;
    }).join('\n');
    expect(everything).toContain(USER_KEY);
    expect(everything).not.toContain('correct horse');
    expect(everything).not.toContain(account?.hash ?? '(no hash)');
    expect(everything).not.toContain(account?.salt ?? '(no salt)');
    expect(stored()).toEqual({ email: 'dana@example.com', name: 'Dana', role: 'user' });
  });

  it('refuses a second account for the same email', async () => {
    await signUp('Dana', 'dana@example.com', 'one');
    await expect(signUp('Other', 'DANA@example.com', 'two')).rejects.toMatchObject({
      message: 'An account with this email already exists. Sign in instead.',
    });
  });
});

describe('a full localStorage', () => {
  it('never leaves the previous member in force when the new sign-in cannot be stored', async () => {
    await signIn('first@example.com', 'pw');
    const storage = localStorage as unknown as MemoryStorage;
    storage.setItem('filler', 'x'.repeat(500));
    storage.quota = 560;
    await signIn('a-much-longer-address-for-the-second-member@example.com', 'pw');
    expect(readStoredSession()?.email).toBe('a-much-longer-address-for-the-second-member@example.com');
    expect(localStorage.getItem(USER_KEY)).toBeNull();
  });
});

describe('signOut and session changes', () => {
  it('removes the stored user and tells listeners', async () => {
    const seen: (Session | null)[] = [];
    const stop = onSessionChange((session) => seen.push(session));
    await signIn('a@b.co', 'pw');
    signOut();
    stop();
    expect(localStorage.getItem(USER_KEY)).toBeNull();
    expect(seen.map((session) => session?.email ?? null)).toEqual(['a@b.co', null]);
  });

  it('copies a change written by another tab or an older build into IndexedDB', async () => {
    const raw = JSON.stringify({ email: 'old@build.com', name: 'Old Build', role: 'user' });
    localStorage.setItem(USER_KEY, raw);
    handleExternalSessionChange(raw);
    await expect.poll(() => readSessionCopy()).toEqual({ email: 'old@build.com', name: 'Old Build', role: 'user' });
  });

  it('falls back to the IndexedDB copy when localStorage throws', async () => {
    await signIn('kept@example.com', 'pw');
    await expect.poll(() => readSessionCopy()).toEqual(makeSession('kept@example.com', ''));
    (localStorage as unknown as MemoryStorage).failWith = new Error('SecurityError');
    // This page still knows who is signed in…
    expect(readStoredSession()).toEqual(makeSession('kept@example.com', ''));
    expect(await readSession()).toEqual(makeSession('kept@example.com', ''));
    // …and so does a fresh page, from the IndexedDB copy.
    vi.resetModules();
    const fresh = await import('../../../../src/db/members/session');
    expect(fresh.readStoredSession()).toBeUndefined();
    expect(await fresh.readSession()).toEqual(makeSession('kept@example.com', ''));
  });
});
