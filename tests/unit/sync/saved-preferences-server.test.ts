// Saved posts and preferences against the real server (test-server.ts): saved posts, the theme and the name made on
// this device reach the member's other device (another browser) and theirs reach this one; a refused
// save is undone and told; the server's search and member pages through the device's client; Free
// up space, then Download the whole forum through the real engine.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { isSaved, savedPostIds, setSaved } from '../../../src/db/saved/saved';
import { readTheme, renameMember, setTheme, takeRefusedName } from '../../../src/db/preferences/preferences';
import { ERRORS } from '../../../src/shared/errors';
import { downloadWholeForum, freeUpSpace, holdsPart } from '../../../src/db/sync/free-space';
import { readStoredSession } from '../../../src/db/members/session';
import { fetchMemberProfile, searchServer } from '../../../src/sync/server-reads';
import { memberId } from '../../../src/shared/members';
import { onSyncNotice, resetSyncStatus, type SyncNotice } from '../../../src/sync/status';
import { connectedDevice } from './harness';
import { startServer } from './test-server';

const MEMBER = 'member@example.com';
beforeEach(() => resetSyncStatus());
afterEach(() => vi.restoreAllMocks());

describe('saved posts, preferences, search and member pages through the real server', () => {
  it('saved posts, theme and name made here reach the member’s phone; the phone’s reach this device', async () => {
    const server = await startServer();
    const first = await server.addPost({ authorEmail: 'author@example.com', title: 'Worth keeping' });
    const second = await server.addPost({ authorEmail: 'author@example.com', title: 'Also good' });
    const mine = await server.addPost({ authorEmail: MEMBER, title: 'My own post' });
    const { engine } = await connectedDevice(server, MEMBER);
    await engine.sync();
    await setSaved(MEMBER, first.id, true);
    await setTheme(MEMBER, 'dark');
    await renameMember(MEMBER, 'Mia Renamed');
    await engine.sync();
    expect(await db.outbox.count()).toBe(0);
    const phone = await server.member(MEMBER);
    const pulled = await phone.api.pull(0, 1000);
    expect(pulled.saved.filter((row) => row.saved).map((row) => row.postId)).toEqual([first.id]);
    expect(pulled.preferences).toMatchObject({ theme: 'dark', name: 'Mia Renamed' });
    expect(pulled.posts.find((post) => post.id === mine.id)?.author).toBe('Mia Renamed');

    // The phone saves the second post, unsaves the first, picks Light and another name.
    const results = await phone.push(
      { id: randomUUID(), type: 'save', postId: second.id, saved: true },
      { id: randomUUID(), type: 'save', postId: first.id, saved: false },
      { id: randomUUID(), type: 'setTheme', theme: 'light' },
      { id: randomUUID(), type: 'rename', name: 'Mia From Phone' },
    );
    expect(results.map((result) => result.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
    await engine.sync();
    expect(await savedPostIds(MEMBER)).toEqual([second.id]);
    expect(await isSaved(MEMBER, first.id)).toBe(false);
    expect(await readTheme(MEMBER)).toBe('light');
    expect(readStoredSession()?.name).toBe('Mia From Phone');
    expect((await db.posts.get(mine.id))!.author).toBe('Mia From Phone');
  });

  it('a display name another member has is refused, told, undone here, and kept for Edit Profile with its sentence', async () => {
    const server = await startServer();
    const other = await server.member('other@example.com');
    expect(await other.push({ id: randomUUID(), type: 'rename', name: 'Taken Name' })).toMatchObject([{ status: 'applied' }]);
    const { engine } = await connectedDevice(server, MEMBER);
    await engine.sync();
    const before = readStoredSession()?.name;
    await renameMember(MEMBER, 'Taken Name');
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));
    await engine.sync();
    stop();
    expect(notices).toEqual([{ title: ERRORS.name_taken.title, description: expect.any(String) }]);
    expect(readStoredSession()?.name).toBe(before);
    expect(await takeRefusedName(MEMBER)).toEqual({ name: 'Taken Name', reason: notices[0]!.description });
    // Taken once: Edit Profile opened with it, it is gone.
    expect(await takeRefusedName(MEMBER)).toBeUndefined();
  });

  it('a save the server refuses (the post left the forum) is undone here and told', async () => {
    const server = await startServer();
    const post = await server.addPost({ authorEmail: 'author@example.com', title: 'Soon hidden' });
    const { engine } = await connectedDevice(server, MEMBER);
    await engine.sync();
    await setSaved(MEMBER, post.id, true);
    // Meanwhile an admin hides it on another device.
    const admin = await server.admin();
    expect(await admin.push({ id: randomUUID(), type: 'hidePost', postId: post.id })).toMatchObject([{ status: 'applied' }]);
    const notices: SyncNotice[] = [];
    const stop = onSyncNotice((notice) => notices.push(notice));
    await engine.sync();
    stop();
    // The server's own title and sentence (whichever refusal it chose), told once.
    expect(notices).toEqual([{ title: expect.any(String), description: expect.any(String) }]);
    expect(await isSaved(MEMBER, post.id)).toBe(false);
    expect(await db.outbox.count()).toBe(0);
  });

  it('searchServer stores what the server found; fetchMemberProfile reads a member page', async () => {
    const server = await startServer();
    const found = await server.addPost({ authorEmail: 'ana@example.com', title: 'Quokka sampling frames', content: 'About quokkas.' });
    await server.addPost({ authorEmail: 'ben@example.com', title: 'Nothing alike', content: 'Other words.' });
    const { api } = await connectedDevice(server, MEMBER);
    const result = await searchServer('quokka', 'All', api);
    expect(result).toEqual({ ids: [found.id], total: 1, more: false, replies: {} });
    expect(await db.posts.get(found.id)).toMatchObject({ title: 'Quokka sampling frames', arrivedAt: 0 });
    // A member's page is found by the random id the server gave their account (the posts carry it).
    expect(found.authorId).toMatch(/^[0-9a-f]{16}$/);
    expect(found.authorId).not.toBe(memberId('ana@example.com'));
    const profile = await fetchMemberProfile(found.authorId, api);
    expect(profile).toMatchObject({ id: found.authorId, name: 'Ana', role: 'user', approvedPosts: 1 });
    await expect(fetchMemberProfile(memberId('ana@example.com'), api)).rejects.toMatchObject({ code: 'member_not_found', status: 404 });
  });

  it('free up space, then download the whole forum: every post is back and the device holds all of it', async () => {
    const server = await startServer();
    await server.insertApprovedPosts(120);
    const { engine } = await connectedDevice(server, MEMBER);
    await engine.sync();
    expect(await db.posts.count()).toBe(120);
    expect(await holdsPart()).toBe(false);
    const { removed } = await freeUpSpace(MEMBER);
    expect(removed).toBe(70);
    expect(await holdsPart()).toBe(true);
    await downloadWholeForum();
    await engine.sync();
    expect(await db.posts.count()).toBe(120);
    expect(await holdsPart()).toBe(false);
  });
});
