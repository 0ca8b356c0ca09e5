// @vitest-environment happy-dom
// A member's theme and name on a local-only and a connected device: the theme row and
// the theme cookie (written here, removed at sign-out, written at sign-in), `setTheme` and `rename`
// queued (connected only), a rename reaching the account, the signed-in user and the member's posts
// and replies, pulled preferences applied, refusals undone.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { applyThemeCookie, readTheme, renameMember, setTheme } from '../../../../src/db/preferences/preferences';
import { readThemeCookie } from '../../../../src/db/preferences/theme-cookie';
import { readStoredSession, saveSession } from '../../../../src/db/members/session';
import { signIn } from '../../../../src/sync/auth';
import { applyPullPage } from '../../../../src/db/sync/apply-pull';
import { applyPushResults } from '../../../../src/db/sync/apply-results';
import { NO_POST_ID, nextBatch } from '../../../../src/db/ops/outbox';
import { markConnected, SYNC_META } from '../../../../src/db/ops/sync-meta';
import { USER_KEY } from '../../../../src/db/contracts';
import { searchApprovedPostIds, stopSearchClient } from '../../../../src/db/search/client';
import type { Op, OpResult, PullResponse, WirePreferences } from '../../../../src/shared/protocol';
import type { SyncApi } from '../../../../src/sync/api';
import { makePost, signInAs, signInAsMember, storePosts } from '../../factories';
import { pullPage, wirePost } from '../../sync/fixtures';

const ME = 'member@example.com';
beforeEach(() => applyThemeCookie(null));
afterEach(() => {
  vi.restoreAllMocks();
  stopSearchClient();
});

const pull = (overrides: Partial<PullResponse>, owner = ME) => applyPullPage(pullPage(overrides), owner);
const prefs = (overrides: Partial<WirePreferences> = {}): WirePreferences => ({
  theme: 'dark',
  name: 'Test Member',
  silenced: false,
  silenceReason: null,
  silencedUntil: null,
  autoWatch: true,
  seq: 2,
  ...overrides,
});
const answer = async (results: (batch: Op[]) => OpResult[], cursor = 0) => {
  const batch = await nextBatch(ME, 100);
  return applyPushResults(batch, results(batch.map((entry) => entry.op)), cursor);
};
const refuseAll = (code: string, reason: string) => (ops: Op[]) =>
  ops.map((op) => ({ id: op.id, status: 'refused' as const, code, reason }));

describe('the theme on a local-only device', () => {
  it('is system until set; setting it writes the row and the cookie, and queues nothing', async () => {
    signInAsMember();
    expect(await readTheme(ME)).toBe('system');
    await setTheme(ME, 'dark');
    expect(await readTheme(ME)).toBe('dark');
    expect(readThemeCookie()).toBe('dark');
    expect(document.cookie).toContain('insight-theme=dark');
    expect(await db.outbox.count()).toBe(0);
    expect(await readTheme('other@example.com')).toBe('system');
    await expect(setTheme(ME, 'purple' as never)).rejects.toMatchObject({ code: 'invalid' });
    await expect(setTheme('other@example.com', 'light')).rejects.toMatchObject({ code: 'not_signed_in' });
  });

  it('sign-out removes the cookie; signing in writes the member’s stored theme', async () => {
    signInAsMember();
    await setTheme(ME, 'light');
    saveSession(null);
    expect(readThemeCookie()).toBeUndefined();
    const localOnly: SyncApi = {
      health: async () => false,
      signIn: async () => Promise.reject(new Error('not used')),
      currentUser: async () => null,
      signOut: async () => undefined,
      push: async () => Promise.reject(new Error('not used')),
      pull: async () => Promise.reject(new Error('not used')),
    };
    await signIn(ME, 'any-password', localOnly);
    expect(readStoredSession()?.email).toBe(ME);
    expect(readThemeCookie()).toBe('light');
    applyThemeCookie(null);
    expect(readThemeCookie()).toBeUndefined();
  });
});

describe('renaming on a local-only device', () => {
  it('checks the name, then renames the account, the signed-in user (every tab reads it) and the member’s posts and replies', async () => {
    await db.accounts.put({ email: ME, name: 'Test Member', createdAt: 5 });
    const [mine, theirs] = await storePosts(
      makePost({ id: 1, title: 'Mine' }),
      makePost({ id: 2, authorEmail: 'o@example.com', author: 'O' }),
    );
    await db.replies.bulkAdd([
      {
        id: 'r1',
        postId: 2,
        author: 'Test Member',
        authorEmail: ME,
        authorRole: 'user',
        content: 'Hi',
        quoteId: null,
        createdAt: 1,
        editedAt: null,
        state: 'visible',
        listed: 1,
      },
      {
        id: 'r2',
        postId: 1,
        author: 'O',
        authorEmail: 'o@example.com',
        authorRole: 'user',
        content: 'Yo',
        quoteId: null,
        createdAt: 2,
        editedAt: null,
        state: 'visible',
        listed: 1,
      },
    ]);
    signInAsMember();
    await expect(renameMember(ME, '   ')).rejects.toMatchObject({ code: 'invalid', message: 'Please fill all fields.' });
    await expect(renameMember(ME, 'x'.repeat(500))).rejects.toMatchObject({ code: 'invalid' });
    const revBefore = (await db.posts.get(mine!.id))!.rev ?? 0;
    await renameMember(ME, '  Ana Lima  ');
    expect((await db.accounts.get(ME))!.name).toBe('Ana Lima');
    expect(readStoredSession()).toMatchObject({ email: ME, name: 'Ana Lima' });
    expect(JSON.parse(localStorage.getItem(USER_KEY)!)).toMatchObject({ name: 'Ana Lima' });
    expect((await db.posts.get(mine!.id))!.author).toBe('Ana Lima');
    expect((await db.posts.get(mine!.id))!.rev).toBeGreaterThan(revBefore);
    expect((await db.posts.get(theirs!.id))!.author).toBe('O');
    expect((await db.replies.get('r1'))!.author).toBe('Ana Lima');
    expect((await db.replies.get('r2'))!.author).toBe('O');
    expect(await db.outbox.count()).toBe(0);
    // The search index reads the new author.
    expect(await searchApprovedPostIds('author:"ana lima"', 'All')).toEqual([mine!.id]);
  });
});

describe('the theme and name on a connected device', () => {
  beforeEach(async () => {
    await markConnected();
    signInAsMember();
  });

  it('queues setTheme and rename about no post', async () => {
    await setTheme(ME, 'dark');
    await renameMember(ME, 'Ana');
    expect((await db.outbox.orderBy('seq').toArray()).map((row) => [row.postId, row.op, row.previous])).toEqual([
      [NO_POST_ID, { id: expect.any(String), type: 'setTheme', theme: 'dark' }, { theme: 'system' }],
      [NO_POST_ID, { id: expect.any(String), type: 'rename', name: 'Ana' }, { name: 'Test Member' }],
    ]);
  });

  it('applies pulled preferences: the theme to the row and the cookie, the name everywhere, without an operation', async () => {
    await pull({ posts: [wirePost(makePost({ id: 41, author: 'Test Member' }))] });
    await pull({ preferences: prefs({ theme: 'dark', name: 'Renamed Elsewhere', seq: 3 }), cursor: 3 });
    expect(await readTheme(ME)).toBe('dark');
    expect(readThemeCookie()).toBe('dark');
    expect(readStoredSession()?.name).toBe('Renamed Elsewhere');
    expect((await db.posts.get(41))!.author).toBe('Renamed Elsewhere');
    expect(await db.outbox.count()).toBe(0);
    // Another member's preferences (a shared device) never touch the signed-in member's cookie.
    // A page is stored only for the member the device holds (the switch comes first).
    await db.meta.put({ key: SYNC_META.owner, value: 'other@example.com' });
    await pull({ preferences: prefs({ theme: 'light', name: 'Other', seq: 4 }), cursor: 4 }, 'other@example.com');
    expect(readThemeCookie()).toBe('dark');
    expect(await readTheme('other@example.com')).toBe('light');
  });

  it('keeps this device’s outstanding theme and name over an older pulled word', async () => {
    await setTheme(ME, 'light');
    await renameMember(ME, 'Mine Here');
    await pull({ preferences: prefs({ theme: 'dark', name: 'Old', seq: 2 }), cursor: 2 });
    expect(await readTheme(ME)).toBe('light');
    expect(readStoredSession()?.name).toBe('Mine Here');
    expect(readThemeCookie()).toBe('light');
  });

  it('a refused rename or theme puts back the server’s word (or what it replaced)', async () => {
    await pull({ preferences: prefs({ theme: 'dark', name: 'Test Member', seq: 2 }), cursor: 2 });
    await setTheme(ME, 'light');
    await renameMember(ME, 'Nope');
    const refusals = await answer(refuseAll('invalid', 'That name cannot be used.'));
    expect(refusals.map((refusal) => [refusal.op.type, refusal.code, refusal.title])).toEqual([
      ['setTheme', 'invalid', undefined],
      ['rename', 'invalid', undefined],
    ]);
    expect(await readTheme(ME)).toBe('dark');
    expect(readThemeCookie()).toBe('dark');
    expect(readStoredSession()?.name).toBe('Test Member');
    expect(await db.outbox.count()).toBe(0);
  });

  it('a refused first rename (no word from the server yet) puts back the previous name', async () => {
    await storePosts(makePost({ id: 5 }));
    await renameMember(ME, 'Nope');
    await answer(refuseAll('invalid', 'No.'));
    expect(readStoredSession()?.name).toBe('Test Member');
    expect((await db.posts.get(5))!.author).toBe('Test Member');
  });

  it('an acknowledged rename settles with the pull that carries it', async () => {
    await renameMember(ME, 'Ana');
    await answer((ops) => ops.map((op) => ({ id: op.id, status: 'applied' as const })), 6);
    expect(await db.outbox.count()).toBe(1);
    await pull({ preferences: prefs({ theme: 'system', name: 'Ana', seq: 6 }), cursor: 6 });
    expect(await db.outbox.count()).toBe(0);
    expect(readStoredSession()?.name).toBe('Ana');
    signInAs(ME, 'Ana');
  });
});
