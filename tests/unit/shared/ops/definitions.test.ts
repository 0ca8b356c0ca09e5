// Every operation's cases (tests/ops/<type>.cases.ts) on the device's store: IndexedDB
// (fake-indexeddb), local-only, each case on a fresh database holding the world of tests/ops/world.ts,
// run as the member the case names through the device's one runner (db/ops/run.ts). The server runs
// the same cases on PGlite and PostgreSQL (tests/server/db/ops/op-definitions.test.ts).
import { describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { flagRow } from '../../../../src/db/flags/flag-rows';
import { runOperation } from '../../../../src/db/ops/run';
import { OPERATIONS } from '../../../../src/shared/ops/registry';
import { ballotOf, newPoll, withBallot, type Poll } from '../../../../src/shared/polls';
import { signInAs } from '../../factories';
import { rememberOwnMemberId } from '../../../../src/db/members/own-id';
import {
  EMAIL,
  FLAGS,
  flagLabel,
  groupLabel,
  categoryLabel,
  MEMBER_ID,
  MEMBERS,
  NOTIFICATIONS,
  notificationLabel,
  POLL_OPTIONS,
  POLL_QUESTION,
  POLLS,
  POSTS,
  REPLIES,
  SAVED,
  SILENCED,
  WORLD_CATEGORIES,
  ALICE,
  CONVERSATION,
  CONVERSATION_MEMBERS,
  CONVERSATION_SUBJECT,
  FIRST_MESSAGE,
  FIRST_MESSAGE_BODY,
  changedTables,
  followLabel,
  readLabel,
  type OpCase,
  type Reader,
  type Table,
  watched,
} from '../../../ops/world';

const tables = import.meta.glob<{ default: OpCase[] }>('../../../ops/*.cases.ts', { eager: true });
const CASES = Object.values(tables).flatMap((table) => table.default);

const nameOf = (email: string) => MEMBERS.find((member) => member.email === email)!.name;
const roleOf = (email: string) => MEMBERS.find((member) => member.email === email)!.role;

/** A world post's poll as a device holds it (local-only: every ballot cast on it). */
function pollOf(postId: number): { poll?: Poll } {
  const world = POLLS.find((poll) => poll.postId === postId);
  if (!world) return {};
  let poll: Poll = {
    ...newPoll({ question: POLL_QUESTION, options: POLL_OPTIONS, multiple: world.multiple, closesAt: null }),
    closedAt: world.closedAt,
  };
  for (const ballot of world.ballots) poll = withBallot(poll, ballot.email, ballot.choices);
  return { poll };
}

/** The world, as the device of `email` holds it (a conversation only on its participants' devices). */
async function seed(email: string): Promise<void> {
  await db.accounts.bulkAdd(MEMBERS.map(({ email, name }) => ({ email, name, createdAt: 1 })));
  // Each account's public id as the world names it (a staff operation finds the account it holds by it).
  for (const { email } of MEMBERS) await rememberOwnMemberId(email, MEMBER_ID[email]);
  await db.posts.bulkAdd(
    POSTS.map((post, index) => ({
      id: post.id,
      title: post.title,
      content: 'Some findings.',
      category: 'Trends',
      author: nameOf(post.author),
      authorEmail: post.author,
      authorRole: roleOf(post.author),
      authorId: MEMBER_ID[post.author],
      likes: post.likes,
      comments: REPLIES.filter((reply) => reply.postId === post.id && reply.state === 'visible').length,
      views: post.views,
      date: '1 hour ago',
      isTopContributor: false,
      tags: [],
      status: post.status,
      reason: post.reason,
      rev: index + 1,
      ...pollOf(post.id),
    })),
  );
  await db.replies.bulkAdd(
    REPLIES.map((reply, index) => ({
      id: reply.id,
      postId: reply.postId,
      author: nameOf(reply.author),
      authorEmail: reply.author,
      authorId: MEMBER_ID[reply.author],
      authorRole: 'user',
      content: reply.content,
      quoteId: null,
      createdAt: index + 1,
      editedAt: null,
      state: reply.state,
      listed: 1 as const,
    })),
  );
  await db.flags.bulkAdd(
    FLAGS.map((flag) =>
      flagRow({
        id: flag.id,
        postId: flag.postId,
        replyId: flag.replyId,
        reason: 'spam',
        text: '',
        flagger: nameOf(flag.by),
        flaggerEmail: flag.by,
        createdAt: 1,
        state: flag.state,
      }),
    ),
  );
  await db.notifications.bulkAdd(
    NOTIFICATIONS.map((note) => ({
      id: note.id,
      kind: 'approved' as const,
      postId: note.postId,
      replyId: null,
      actor: null,
      postTitle: 'A post',
      reason: null,
      createdAt: 1,
      readAt: null,
      email: note.to,
      unread: 1 as const,
    })),
  );
  await db.saved.bulkAdd(SAVED.map(({ email, postId }) => ({ email, postId, saved: true, at: 1 })));
  // The server's categories as its pull left them (the device holds no group of its member's).
  await db.categories.bulkAdd(WORLD_CATEGORIES.map((category) => ({ ...category, hidden: 0 as const, seq: 1 })));
  // A silence is the server's word on the member, as their preferences hold it.
  for (const { email, reason } of SILENCED) {
    const sync = { seq: 1, theme: 'system' as const, name: nameOf(email), silenced: true, silenceReason: reason, silencedUntil: null };
    await db.preferences.put({ email, theme: 'system', sync });
  }
  const place = CONVERSATION_MEMBERS.find((member) => member.email === email);
  if (place) {
    await db.conversations.add({
      id: CONVERSATION,
      subject: CONVERSATION_SUBJECT,
      authorId: MEMBER_ID[ALICE]!,
      createdAt: 1,
      updatedAt: 1,
      participants: CONVERSATION_MEMBERS.map((member) => ({ id: MEMBER_ID[member.email]!, name: nameOf(member.email), left: false })),
      email,
      lastReadAt: place.read ? 1 : null,
      left: false,
      seq: 1,
    });
    await db.messages.add({
      id: FIRST_MESSAGE,
      conversationId: CONVERSATION,
      authorId: MEMBER_ID[ALICE]!,
      author: 'Alice',
      body: FIRST_MESSAGE_BODY,
      createdAt: 1,
      seq: 1,
    });
  }
}

const reader: Reader = {
  async poll(postId, email) {
    const poll = (await db.posts.get(postId))?.poll;
    if (!poll) return null;
    return { counts: poll.counts, voters: poll.voters, mine: ballotOf(poll, email), closed: poll.closedAt !== null };
  },
  async post(id) {
    const row = await db.posts.get(id);
    if (!row) return undefined;
    const { status, likes, views, comments, title, author } = row;
    return { status, likes, views, comments, reason: row.reason ?? null, title, author };
  },
  async postsOf(email) {
    const rows = await db.posts.where('[authorEmail+id]').between([email, 0], [email, Infinity]).toArray();
    return rows.map((row) => `${row.title} ${row.status}`).sort();
  },
  async reply(id) {
    const row = await db.replies.get(id);
    return row && { state: row.state, content: row.content };
  },
  async replyAuthor(id) {
    return (await db.replies.get(id))?.author;
  },
  async flags(postId) {
    const rows = await db.flags.filter((flag) => flag.postId === postId).toArray();
    return rows.map((flag) => flagLabel(flag.flaggerEmail, flag.state, flag.replyId)).sort();
  },
  async notifications(email) {
    const rows = await db.notifications.filter((row) => row.email === email).toArray();
    return rows.map((row) => notificationLabel(row.id, row.kind, row.readAt)).sort();
  },
  async notificationTitles(email) {
    return (await db.notifications.filter((row) => row.email === email).toArray()).map((row) => row.postTitle).sort();
  },
  async saved(email, postId) {
    return (await db.saved.get([email, postId]))?.saved;
  },
  async preferences(email) {
    return { theme: (await db.preferences.get(email))?.theme ?? 'system', name: (await db.accounts.get(email))!.name };
  },
  async silence(email) {
    const sync = (await db.preferences.get(email))?.sync;
    return { silenced: sync?.silenced === true, reason: sync?.silenceReason ?? null, until: sync?.silencedUntil ?? null };
  },
  // Only a pull writes groups on a device: an operation here leaves them as they are.
  async groups() {
    const members = await db.groupMembers.toArray();
    const rows = await db.groups.toArray();
    const names = (id: string) => members.filter((member) => member.groupId === id).map((member) => member.name);
    return rows.map((group) => groupLabel(group.name, group.description, names(group.id))).sort();
  },
  async category(id) {
    const row = await db.categories.get(id);
    return row && categoryLabel(row);
  },
  async conversation(id, email) {
    const row = await db.conversations.get(id);
    if (!row || row.email !== email) return undefined;
    return { subject: row.subject, participants: row.participants.map((one) => one.name), read: row.lastReadAt !== null, left: row.left };
  },
  async messages(conversationId) {
    const rows = await db.messages
      .where('[conversationId+createdAt]')
      .between([conversationId, -Infinity], [conversationId, Infinity])
      .toArray();
    return rows.map((row) => `${row.author}: ${row.body}`);
  },
  async messageFlags() {
    return [];
  },
  // A device records no suspension: the server, which alone knows every member, does.
  async suspension() {
    return null;
  },
  async following(email) {
    const titles = new Map((await db.posts.toArray()).map((post) => [post.id, post.title]));
    const rows = await db.follows.filter((row) => row.email === email).toArray();
    return rows.map((row) => followLabel(row.kind, row.target, row.level, (id) => titles.get(id))).sort();
  },
  async readIn(email) {
    const rows = await db.reads.filter((row) => row.email === email).toArray();
    return Promise.all(rows.map(async (row) => readLabel((await db.posts.get(row.postId))?.title, row.readTo))).then((labels) =>
      labels.sort(),
    );
  },
  async autoWatch(email) {
    return (await db.preferences.get(email))?.autoWatch ?? true;
  },
};

/** Every table a case may read, as the device holds it (a post's poll apart from the post). */
async function tablesNow(): Promise<Record<Table, unknown>> {
  const posts = await db.posts.toArray();
  return {
    posts: [posts.map(({ poll: _poll, ...post }) => post), await db.viewed.toArray()],
    polls: posts.map((post) => [post.id, post.poll ?? null]),
    replies: await db.replies.toArray(),
    flags: await db.flags.toArray(),
    notifications: await db.notifications.toArray(),
    saved: await db.saved.toArray(),
    members: [await db.accounts.toArray(), await db.preferences.toArray()],
    groups: [await db.groups.toArray(), await db.groupMembers.toArray()],
    categories: await db.categories.toArray(),
    messages: [await db.conversations.toArray(), await db.messages.toArray()],
    follows: await db.follows.toArray(),
    reads: await db.reads.toArray(),
  };
}

describe('every operation, defined once, on the device (IndexedDB, local-only)', () => {
  it('has cases for every operation of the registry', () => {
    expect(new Set(CASES.map((one) => one.type))).toEqual(new Set(OPERATIONS.map((definition) => definition.type)));
  });

  for (const one of CASES) {
    it(`${one.type}: ${one.name}`, async () => {
      await seed(EMAIL[one.who]);
      signInAs(EMAIL[one.who], nameOf(EMAIL[one.who]));
      const before = await tablesNow();
      const ran = runOperation(one.type, one.payload as never, one.id ? { id: one.id } : {});
      if (typeof one.expect === 'string' && one.deviceApplies) {
        // Only the server can refuse it: here it runs, and its server's refusal undoes it.
        await expect(ran).resolves.toBeDefined();
        return;
      }
      if (typeof one.expect === 'string') {
        await expect(ran).rejects.toMatchObject({ code: one.expect });
        expect(changedTables(before, await tablesNow()), 'a refusal changes nothing').toEqual([]);
        return;
      }
      await ran;
      const looked = watched(reader);
      expect(await one.expect.look(looked.reader)).toEqual('onDevice' in one.expect ? one.expect.onDevice : one.expect.is);
      // Every table the operation changed here is one the case reads (so the server must agree on it).
      expect(
        changedTables(before, await tablesNow()).filter((table) => !looked.read.has(table)),
        'changed, and read by no case',
      ).toEqual([]);
    });
  }
});
