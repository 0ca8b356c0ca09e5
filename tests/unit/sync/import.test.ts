import { describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { importPosts } from '../../../src/db/posts/backup';
import { queueImportedChunk } from '../../../src/db/sync/import-ops';
import { samplePosts } from '../../../src/shared/sample-posts';
import { DEFAULT_ADMIN_EMAIL } from '../../../src/shared/post-rules';
import { makePost } from '../factories';
import { connectedDevice } from './harness';
import { startServer } from './test-server';

describe('an admin import on a connected device', () => {
  it('reaches the server once: new posts with their review and likes, more likes on known ones, never the samples', async () => {
    const server = await startServer({ samples: true }); // the server seeds its own sample posts
    const known = await server.addPost({ title: 'Known on the server', likes: 2 });
    const device = await connectedDevice(server, DEFAULT_ADMIN_EMAIL);
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
    const onServer = await server.posts();
    expect(onServer.find((post) => post.title === 'Imported and approved')).toMatchObject({ status: 'approved', likes: 7 });
    expect(onServer.find((post) => post.title === 'Imported and pending')).toMatchObject({ status: 'pending' });
    expect((await server.post(known.id))!.likes).toBe(5);
    // The server's own copy of the sample is the only one, there and on the device.
    const serverSamples = onServer.filter((post) => post.title === sample!.title);
    expect(serverSamples).toHaveLength(1);
    expect((await db.posts.filter((post) => post.title === sample!.title).toArray()).map((post) => post.id)).toEqual([
      serverSamples[0]!.id,
    ]);
    expect(await db.outbox.count()).toBe(0);
    // Importing the same file again sends nothing more.
    const pushes = server.requests.filter((request) => request === 'POST /api/ops').length;
    await importPosts(file);
    await queueImportedChunk(backup, admin);
    await device.engine.sync();
    expect(server.requests.filter((request) => request === 'POST /api/ops')).toHaveLength(pushes);
    expect(await server.posts()).toHaveLength(onServer.length);
  });
});
