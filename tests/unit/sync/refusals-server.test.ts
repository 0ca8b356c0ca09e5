// The server's refusals as a person meets them, against the real server (test-server.ts): a
// sign-in refused for rate limits or an unavailable database keeps the server's sentence under a
// fitting title; another protocol version asks for a reload; a refused operation is undone and
// told; an operation the server keeps failing on is set aside so the rest flows; long posts in
// CJK text are split by bytes under the server's body limit. (refusals.test.ts keeps the answers
// only a misbehaving or newer server gives.)
import { beforeEach, describe, expect, it } from 'vitest';
import { errorToast } from '../../../src/components/toast/error-toast';
import { createPost } from '../../../src/db/posts/posts';
import { db } from '../../../src/db/storage/schema';
import { likePost } from '../../../src/db/likes/likes';
import { countSetAside, countWaiting, SET_ASIDE_AFTER_MS } from '../../../src/db/ops/outbox';
import { ERRORS } from '../../../src/shared/errors';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../../src/shared/protocol';
import type { Database } from '../../../server/db/storage/adapter';
import { createApi, type Fetch } from '../../../src/sync/api';
import { signIn } from '../../../src/sync/auth';
import { resetMode } from '../../../src/sync/mode';
import { getSyncStatus, onSyncNotice, resetSyncStatus, type SyncNotice } from '../../../src/sync/status';
import { makePost, storePosts, synced } from '../factories';
import { connectedDevice } from './harness';
import { startServer } from './test-server';

/** The server's database, failing (as a bug would) every statement that carries `marker`. */
const failingOn =
  (marker: () => string | undefined) =>
  (db: Database): Database =>
    Object.create(db, {
      transaction: {
        value: <T>(work: Parameters<Database['transaction']>[0]) =>
          db.transaction(
            (tx) =>
              work({
                query: (text, params) => {
                  const mark = marker();
                  if (mark && params?.includes(mark)) return Promise.reject(Object.assign(new Error('boom'), { code: 'XX000' }));
                  return tx.query(text, params);
                },
              }) as Promise<T>,
          ),
      },
    });

function noticesOf(): SyncNotice[] {
  const notices: SyncNotice[] = [];
  onSyncNotice((notice) => notices.push(notice));
  return notices;
}

describe('a sign-in the real server refuses', () => {
  beforeEach(() => resetMode());

  it('for rate limits: titled "Too many attempts", with the server’s sentence and its wait', async () => {
    const server = await startServer({ limits: { perEmailAndAddress: { max: 0, windowMs: 12 * 60_000 } } });
    const error = await signIn('member@example.com', 'secret', createApi(server.device())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(errorToast(error)).toEqual({
      title: 'Too many attempts',
      description: 'Too many attempts. Try again in 12 minutes.',
      variant: 'error',
    });
  });

  it('for an unavailable database: its sentence under "Server unavailable"', async () => {
    let restarting = false;
    const unavailable = (db: Database): Database =>
      Object.create(db, {
        query: {
          value: (text: string, params?: unknown[]) =>
            restarting ? Promise.reject(Object.assign(new Error('the database is restarting'), { code: '57P01' })) : db.query(text, params),
        },
      });
    const server = await startServer({ database: unavailable });
    restarting = true;
    // Health asks the database too: this device was connected before.
    await (await import('../../../src/db/ops/sync-meta')).markConnected();
    const error = await signIn('member@example.com', 'secret', createApi(server.device())).catch((caught: unknown) => caught);
    expect(errorToast(error)).toMatchObject({ title: 'Server unavailable', description: ERRORS.database_unavailable.message });
  });
});

describe('the sync engine and the real server’s refusals', () => {
  beforeEach(() => resetSyncStatus());

  it('a device of another protocol version is asked to reload, once, with no back-off loop', async () => {
    const server = await startServer();
    const device = await connectedDevice(server);
    // The same device as a build of the next version would send its requests.
    const fetch: Fetch = await server.signedInDevice('member@example.com');
    const newer: Fetch = (input, init = {}) =>
      fetch(input, { ...init, headers: { ...init.headers, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION + 1) } });
    let outdated = 0;
    const { engine, timers } = await connectedDevice(server, 'member@example.com', {
      api: createApi(newer),
      onOutdated: () => (outdated += 1),
    });
    const notices = noticesOf();
    await engine.sync();
    await engine.sync();
    expect(getSyncStatus()).toMatchObject({ state: 'error', message: ERRORS.protocol_mismatch.message });
    expect(notices).toEqual([{ title: 'Update needed', description: ERRORS.protocol_mismatch.message }]);
    expect(timers).toHaveLength(0);
    expect(outdated).toBe(2);
    // This build's own requests are served.
    await device.engine.sync();
    expect(getSyncStatus()).toMatchObject({ state: 'synced' });
  });

  it('a refused operation is undone and told with the code’s title and the server’s sentence', async () => {
    const server = await startServer();
    const { engine } = await connectedDevice(server);
    // A post this device holds as the server's, which the server no longer has.
    await storePosts(synced(makePost({ id: 7, status: 'approved', likes: 1 })));
    const notices = noticesOf();
    await likePost(7);
    expect((await db.posts.get(7))!.likes).toBe(2);
    await engine.sync();
    expect(notices).toContainEqual({ title: 'Post removed', description: 'This post no longer exists.' });
    expect(await countWaiting()).toBe(0);
    expect((await db.posts.get(7))!.likes).toBe(1);
  });

  it('an operation the server keeps failing on is answered failed, set aside after a minute of failures, and the rest flows', async () => {
    let marker: string | undefined = 'Explodes';
    const server = await startServer({ database: failingOn(() => marker) });
    let clock = 1_000_000;
    const { engine, timers } = await connectedDevice(server, 'member@example.com', { now: () => (clock += SET_ASIDE_AFTER_MS / 2) });
    const notices = noticesOf();
    await createPost({ title: 'Explodes', content: 'A bug on the server fails this one.', category: 'Trends' });
    await createPost({ title: 'Fine', content: 'This one is applied.', category: 'Trends' });
    await engine.sync();
    expect((await server.posts()).map((post) => post.title)).toEqual(['Fine']);
    expect(getSyncStatus()).toMatchObject({ state: 'error', message: ERRORS.server_error.message });
    await engine.sync();
    await engine.sync();
    expect(await countSetAside('member@example.com')).toBe(1);
    expect(await countWaiting('member@example.com')).toBe(0);
    expect(notices).toEqual([{ title: 'Change set aside', description: ERRORS.set_aside.message }]);
    expect(getSyncStatus()).toMatchObject({ state: 'synced', setAside: 1 });
    expect(timers).toHaveLength(2);
    // The next start sends it again; the server was mended meanwhile.
    marker = undefined;
    await (await import('../../../src/db/ops/outbox')).releaseSetAside();
    await engine.sync();
    expect((await server.posts()).map((post) => post.title).sort()).toEqual(['Explodes', 'Fine']);
  });

  it('twenty long posts in CJK text reach the server: bodies are cut by UTF-8 bytes, under its 1 MiB limit', async () => {
    const server = await startServer();
    const { engine } = await connectedDevice(server);
    for (let index = 0; index < 20; index += 1)
      await createPost({ title: `市场调研 ${index}`, content: '调查'.repeat(10_000), category: 'Trends' });
    await engine.sync();
    expect(await countWaiting('member@example.com')).toBe(0);
    expect(await server.posts()).toHaveLength(20);
    expect(server.requests.filter((request) => request === 'POST /api/ops').length).toBeGreaterThan(1);
  });
});
