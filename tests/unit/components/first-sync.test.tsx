// @vitest-environment happy-dom
// A connected device whose first sync has not finished shows its lists loading, never empty: a new
// device's forum said "No posts found" and an admin's queue "All caught up!" while a post waited,
// until the sync landed (found by a new member trying the app, 2026-12-05); so did a device another
// member used, during the new member's pull from zero. Offline or failing before that sync, the
// lists say so. A local-only device, and one that has synced, are unchanged.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { SYNC_META, writeLastSyncAt } from '../../../src/db/ops/sync-meta';
import { switchMember } from '../../../src/db/sync/member-switch';
import { ForumPostList } from '../../../src/features/forum/forum-post-list';
import { PendingQueue } from '../../../src/features/admin/pending-queue';
import { FlagsQueue } from '../../../src/features/admin/flags-queue';
import { AdminPage } from '../../../src/pages/admin';
import { stopSearchClient } from '../../../src/db/search/client';
import { resetSyncStatus, setSyncStatus } from '../../../src/sync/status';
import { makePost, signInAsAdmin, signInAsMember, storePosts } from '../factories';

afterEach(() => {
  cleanup();
  stopSearchClient();
  resetSyncStatus();
});

const connect = () => db.meta.put({ key: SYNC_META.connected, value: Date.now() });

function showForum() {
  signInAsMember();
  render(
    <MemoryRouter>
      <ForumPostList search="" category="All" email="member@example.com" since={undefined} part={false} />
    </MemoryRouter>,
  );
}

function showQueue() {
  signInAsAdmin();
  render(
    <MemoryRouter>
      <PendingQueue keys={false} />
    </MemoryRouter>,
  );
}

describe('an empty list before a connected device’s first sync', () => {
  it('the forum is loading while the first sync runs, then says it has no posts once it has finished', async () => {
    // Read first as a device that has not found its server: empty, and saying so.
    showForum();
    expect(await screen.findByText('No posts found')).toBeTruthy();
    // It finds its server (mode.ts marks it connected) and starts its first sync.
    await connect();
    setSyncStatus({ state: 'syncing' });
    expect(await screen.findByText('Loading posts...')).toBeTruthy();
    expect(screen.queryByText('No posts found')).toBeNull();
    expect(screen.queryByText('0 posts')).toBeNull();
    await writeLastSyncAt();
    expect(await screen.findByText('No posts found')).toBeTruthy();
    expect(screen.getByText('0 posts')).toBeTruthy();
  });

  it('offline before its first sync, the forum says the device has not reached the server, and loads again once syncing', async () => {
    await connect();
    setSyncStatus({ state: 'offline' });
    showForum();
    expect(await screen.findByRole('heading', { name: 'Not synced yet' })).toBeTruthy();
    expect(screen.getByText('This device has not reached the server yet. Posts appear here once it does.')).toBeTruthy();
    setSyncStatus({ state: 'syncing' });
    expect(await screen.findByText('Loading posts...')).toBeTruthy();
  });

  it('a local-only device’s empty forum says so at once', async () => {
    showForum();
    expect(await screen.findByText('No posts found')).toBeTruthy();
  });

  it('the admin’s queue is loading, not "All caught up!", until the first sync has finished', async () => {
    // An admin's device that has synced, with nothing waiting.
    await connect();
    await writeLastSyncAt();
    showQueue();
    expect(await screen.findByText('All caught up!')).toBeTruthy();
    // Another member used it before: the switch takes their data, and the admin's pull from zero begins.
    await db.meta.put({ key: SYNC_META.owner, value: 'member@example.com' });
    setSyncStatus({ state: 'syncing' });
    expect(await switchMember(signInAsAdmin())).toBe(true);
    expect(await screen.findByText('Loading pending posts...')).toBeTruthy();
    expect(screen.queryByText('All caught up!')).toBeNull();
    setSyncStatus({ state: 'error', message: 'The server did not answer.' });
    expect(await screen.findByText('This device has not reached the server yet. Pending posts appear here once it does.')).toBeTruthy();
    await writeLastSyncAt();
    expect(await screen.findByText('All caught up!')).toBeTruthy();
  });

  it('the admin’s Pending Posts count shows once the first sync has finished, not while a member switch’s pull runs (0 read as nothing waiting)', async () => {
    await connect();
    await writeLastSyncAt();
    await storePosts(makePost({ id: 1, title: 'Waits for review', status: 'pending' }));
    signInAsAdmin();
    render(
      <MemoryRouter initialEntries={['/admin']}>
        <AdminPage />
      </MemoryRouter>,
    );
    expect((await screen.findByText('Waiting:')).parentElement?.textContent).toBe('Waiting: 1');
    await db.meta.put({ key: SYNC_META.owner, value: 'member@example.com' });
    expect(await switchMember(signInAsAdmin())).toBe(true);
    // The queue shows what the device holds so far; its count waits for the pull.
    await waitFor(() => expect(screen.queryByText('Waiting:')).toBeNull());
    expect(screen.getByText('Waits for review')).toBeTruthy();
    await writeLastSyncAt();
    expect((await screen.findByText('Waiting:')).parentElement?.textContent).toBe('Waiting: 1');
  });

  it('the Flags queue is loading, not "No open flags", while a member switch’s pull runs', async () => {
    await connect();
    await writeLastSyncAt();
    signInAsAdmin();
    render(
      <MemoryRouter>
        <FlagsQueue />
      </MemoryRouter>,
    );
    expect(await screen.findByText('No open flags')).toBeTruthy();
    await db.meta.put({ key: SYNC_META.owner, value: 'member@example.com' });
    expect(await switchMember(signInAsAdmin())).toBe(true);
    expect(await screen.findByText('Loading flags...')).toBeTruthy();
    expect(screen.queryByText('No open flags')).toBeNull();
    await writeLastSyncAt();
    expect(await screen.findByText('No open flags')).toBeTruthy();
  });
});
