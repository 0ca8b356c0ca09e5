import { describe, expect, it } from 'vitest';
import { db } from '../../../src/db/core/schema';
import { importPosts } from '../../../src/db/posts/backup';
import { queueImportedChunk } from '../../../src/db/sync/import-ops';
import { samplePosts } from '../../../src/shared/sample-posts';
import { DEFAULT_ADMIN_EMAIL } from '../../../src/shared/post-rules';
import { makePost } from '../factories';
import { connectedDevice } from './harness';
import { FakeServer } from './fake-server';

describe('an admin import on a connected device', () => {
  it('reaches the server once: new posts with their review and likes, more likes on known ones, never the samples', async () => {
    const server = new FakeServer();
    const known = server.addPost({ title: 'Known on the server', likes: 2 });
    const device = await connectedDevice(DEFAULT_ADMIN_EMAIL, server, 'admin-pass');
    await device.engine.sync();
    const [sample] = samplePosts(1_600_000_000_000);
    const backup = [
      makePost({ id: 1_650_000_000_001, title: 'Imported and approved', likes: 7, status: 'approved' }),
      makePost({ id: 1_650_000_000_002, title: 'Imported and pending', status: 'pending' }),
      { ...(await db.posts.get(known.id))!, likes: 5, sync: undefined, rev: undefined },
      sample!,
    ];
    const file = new Blob([JSON.stringify({ format: 'insight-exchange-backup', version: 1, posts: backup })]);
    await importPosts(file);
    const admin = { email: DEFAULT_ADMIN_EMAIL, name: 'Admin', role: 'admin' as const };
    expect(await queueImportedChunk(backup, admin)).toBe(3);
    await device.engine.sync();
    await device.engine.sync(); // the reviews and likes of new posts follow their create
    const onServer = [...server.posts.values()];
    expect(onServer.find((post) => post.title === 'Imported and approved')).toMatchObject({ status: 'approved', likes: 7 });
    expect(onServer.find((post) => post.title === 'Imported and pending')).toMatchObject({ status: 'pending' });
    expect(server.posts.get(known.id)!.likes).toBe(5);
    expect(onServer.filter((post) => post.title === sample!.title)).toHaveLength(0);
    expect(await db.posts.filter((post) => post.title === sample!.title).count()).toBe(0); // the server's own copy is the one shown
    expect(await db.outbox.count()).toBe(0);
    // Importing the same file again sends nothing more.
    const pushes = server.requests.filter((request) => request === 'POST /api/ops').length;
    await importPosts(file);
    await queueImportedChunk(backup, admin);
    await device.engine.sync();
    expect(server.requests.filter((request) => request === 'POST /api/ops')).toHaveLength(pushes);
    expect(onServer.length).toBe(server.posts.size);
  });
});
