// Change email (issue 59): the device moves what it keeps for the member to their new address, so
// it goes on as the same member (no switch, nothing wiped, queued changes still theirs).
import { describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { moveMemberData } from '../../../../src/db/members/email-change';
import { ownMemberId, rememberOwnMemberId } from '../../../../src/db/members/own-id';
import { countWaiting } from '../../../../src/db/ops/outbox';
import { markConnected, readOwner, SYNC_META } from '../../../../src/db/ops/sync-meta';
import { switchMember } from '../../../../src/db/sync/member-switch';
import { makeSession } from '../../../../src/db/members/session-rules';
import type { Op } from '../../../../src/shared/protocol';
import { makePost } from '../../factories';

const OLD = 'nora@example.com';
const NEW = 'nora.new@example.net';

describe('moveMemberData', () => {
  it('moves the outbox, saved posts, preferences, own posts, own id and the sync owner; another member’s rows stay', async () => {
    await markConnected();
    await db.meta.put({ key: SYNC_META.owner, value: OLD });
    await rememberOwnMemberId(OLD, 'abcdef0123456789');
    const pending = { ...makePost({ id: 7, status: 'pending', authorEmail: OLD }), sync: { seq: 3, likes: 0, status: 'pending' as const } };
    await db.posts.bulkAdd([pending, makePost({ id: 8, authorEmail: 'olga@example.com' })]);
    await db.outbox.add({ op: { id: 'x', type: 'like', postId: 8 } as unknown as Op, postId: 8, email: OLD });
    await db.saved.add({ email: OLD, postId: 8, at: 1, saved: true } as never);
    await db.preferences.add({ email: OLD, theme: 'dark' });

    await moveMemberData(OLD, NEW);

    expect(await countWaiting(NEW)).toBe(1);
    expect(await countWaiting(OLD)).toBe(0);
    expect((await db.saved.toArray()).map((row) => [row.email, row.postId])).toEqual([[NEW, 8]]);
    expect(await db.preferences.get(NEW)).toMatchObject({ theme: 'dark' });
    expect(await db.preferences.get(OLD)).toBeUndefined();
    expect((await db.posts.get(7))?.authorEmail).toBe(NEW);
    expect((await db.posts.get(8))?.authorEmail).toBe('olga@example.com');
    expect(await ownMemberId(NEW)).toBe('abcdef0123456789');
    expect(await readOwner()).toBe(NEW);
    // The session under the new address is the same member: no switch, the pending post stays.
    expect(await switchMember(makeSession(NEW, 'Nora'))).toBe(false);
    expect(await db.posts.get(7)).toBeDefined();
  });
});
