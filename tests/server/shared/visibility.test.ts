// Who sees what (src/shared/visibility.ts), held together on both engines: every combination of
// viewer (nobody signed in, the posts' author, another member, an admin), post status (pending,
// approved, rejected), reply state (visible, hidden, deleted) and file (on a post or reply of each
// kind, uploaded or not) is put in a database, and each SQL condition the server's readers use must
// answer exactly what its TypeScript predicate says: posts, the admin-only `previous`, the reason,
// reply text and files, public posts and replies (member pages, mention search, the digest), downloads,
// notifications (and the emails that list them), and the PL/pgSQL like batch (ie_like_batch).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/storage/adapter';
import { INSERT_POST, insertParams, readablePostColumns, toWirePost } from '../../../server/db/posts/post-rows';
import { INSERT_REPLY, insertReplyParams, readableReplyColumns, toWireReply } from '../../../server/db/replies/reply-rows';
import { memberProfile } from '../../../server/db/members/members';
import { POST_STATUSES, REPLY_STATES, pendingPost, newReply, type PostStatus, type ReplyState } from '../../../src/shared/post-rules';
import {
  isCarriedWhereSeen,
  isPublicPost,
  isPublicReply,
  likeOutcome,
  mayDownloadFile,
  messageFileSql,
  mayReadPrevious,
  mayReadReason,
  mayReadReply,
  maySeeFile,
  maySeeNotification,
  maySeePost,
  notificationSeenSql,
  postVisibleSql,
  publicPostSql,
  publicReplySql,
  replyReadableSql,
  sqlViewer,
  viewerParams,
  visibleFileNameSql,
  conversationReadableSql,
  mayReadConversation,
  isListedPost,
  listedPostSql,
  type Viewer,
} from '../../../src/shared/visibility';
import { BACKENDS, freshDatabase } from '../support/databases';

const AUTHOR = 'author@example.com';
const OTHER = 'other@example.com';
const BOSS = 'boss@example.com';

interface Person {
  label: string;
  viewer: Viewer;
}
const VIEWERS: Person[] = [
  { label: 'nobody signed in', viewer: null },
  { label: 'the author', viewer: { email: AUTHOR, role: 'user' } },
  { label: 'another member', viewer: { email: OTHER, role: 'user' } },
  { label: 'an admin', viewer: { email: BOSS, role: 'admin' } },
];

interface PostCase {
  id: number;
  status: PostStatus;
  authorEmail: string;
  file: string;
}
interface ReplyCase {
  id: string;
  postId: number;
  state: ReplyState;
  file: string;
}

const sha = (index: number) => index.toString(16).padStart(64, '0');
const V = sqlViewer('$1', '$2');
const sorted = <T>(values: T[]) => [...values].sort();

describe.each(BACKENDS)('who sees what, SQL against the TypeScript rule, on %s', (backend) => {
  let db: Database;
  const users = new Map<string, number>();
  const posts: PostCase[] = [];
  const replies: ReplyCase[] = [];
  const unclaimed = sha(999);
  const uploads: { email: string; file: string }[] = [];
  const notes: { id: string; userEmail: string; kind: string; postId: number; replyId: string | null }[] = [];

  beforeAll(async () => {
    db = await freshDatabase(backend);
    for (const [email, role] of [
      [AUTHOR, 'user'],
      [OTHER, 'user'],
      [BOSS, 'admin'],
    ] as const) {
      const [row] = await db.query<{ id: unknown }>(
        `INSERT INTO users (email, name, role, password_hash, member_id, email_verified_at) VALUES ($1, $2, $3, 'x', $4, 1) RETURNING id`,
        [email, email.split('@')[0], role, `m-${role}-${email.length}-${email[0]}`],
      );
      users.set(email, Number(row!.id));
    }
    let file = 1;
    const addFile = async (uploader?: string) => {
      const address = sha(file++);
      await db.query(`INSERT INTO attachments (sha256, kind, mime, size, created_at) VALUES ($1, 'png', 'image/png', 1, 1)`, [address]);
      if (uploader) {
        await db.query('INSERT INTO attachment_uploads (user_id, sha256, name, at) VALUES ($1, $2, $3, 1)', [
          users.get(uploader),
          address,
          'mine.png',
        ]);
        uploads.push({ email: uploader, file: address });
      }
      return address;
    };
    await db.query(`INSERT INTO attachments (sha256, kind, mime, size, created_at) VALUES ($1, 'png', 'image/png', 1, 1)`, [unclaimed]);
    let postId = 9_000_000;
    for (const status of POST_STATUSES) {
      for (const authorEmail of [AUTHOR, BOSS]) {
        const id = postId++;
        // The author's files are theirs; an admin's post carries a file nobody uploaded (an import).
        const address = await addFile(authorEmail === AUTHOR ? AUTHOR : undefined);
        const post = {
          ...pendingPost(id, { email: authorEmail, name: 'A', role: 'user' }, { title: `T${id}`, content: 'c', category: 'Trends' }),
          status,
        };
        await db.query(INSERT_POST, insertParams(post, 1));
        await db.query(`UPDATE posts SET previous = $2::text::jsonb, reason = 'why', attachments = $3::text::jsonb WHERE id = $1`, [
          id,
          JSON.stringify({ title: 'old', content: 'old', category: 'Trends', tags: [], editedAt: null }),
          JSON.stringify([{ sha256: address, name: 'post.png', mime: 'image/png', size: 1 }]),
        ]);
        posts.push({ id, status, authorEmail, file: address });
        for (const state of REPLY_STATES) {
          const replyId = randomUUID();
          const replyFile = await addFile(OTHER);
          const reply = { ...newReply(replyId, id, { email: OTHER, name: 'O', role: 'user' }, 'words', null, 1), state };
          await db.query(INSERT_REPLY, insertReplyParams(reply, 1));
          await db.query(`UPDATE replies SET attachments = $2::text::jsonb WHERE id = $1`, [
            replyId,
            JSON.stringify([{ sha256: replyFile, name: 'reply.png', mime: 'image/png', size: 1 }]),
          ]);
          replies.push({ id: replyId, postId: id, state, file: replyFile });
        }
      }
    }
    // Notifications to each member: about a post, a reply on it, a hidden reply (replyHidden), and a deleted post.
    let seq = 1;
    for (const email of [AUTHOR, OTHER, BOSS]) {
      for (const post of posts) {
        notes.push({ id: randomUUID(), userEmail: email, kind: 'approved', postId: post.id, replyId: null });
        for (const reply of replies.filter((item) => item.postId === post.id)) {
          notes.push({ id: randomUUID(), userEmail: email, kind: 'replied', postId: post.id, replyId: reply.id });
          notes.push({ id: randomUUID(), userEmail: email, kind: 'replyHidden', postId: post.id, replyId: reply.id });
        }
      }
      notes.push({ id: randomUUID(), userEmail: email, kind: 'approved', postId: 8_999_999, replyId: null });
    }
    for (const note of notes) {
      await db.query(
        `INSERT INTO notifications (id, user_id, kind, post_id, reply_id, post_title, created_at, seq) VALUES ($1, $2, $3, $4, $5, 't', 1, $6)`,
        [note.id, users.get(note.userEmail), note.kind, note.postId, note.replyId, seq++],
      );
    }
  });
  afterAll(() => db.close());

  const postById = (id: number) => posts.find((post) => post.id === id);

  it.each(VIEWERS)('posts: the SQL condition lets $label see exactly what maySeePost does (seeded posts too)', async ({ viewer }) => {
    const all = await db.query<{ id: unknown; status: PostStatus; author_email: string }>('SELECT id, status, author_email FROM posts');
    expect(all.length).toBeGreaterThan(posts.length);
    const expected = all
      .filter((row) => maySeePost({ status: row.status, authorEmail: row.author_email }, viewer))
      .map((row) => Number(row.id));
    const seen = await db.query<{ id: unknown }>(`SELECT id FROM posts WHERE ${postVisibleSql(V)}`, viewerParams(viewer));
    expect(sorted(seen.map((row) => Number(row.id)))).toEqual(sorted(expected));
    // Ours are 6: every status, by the author and by an admin.
    const ours = posts.filter((post) => maySeePost(post, viewer)).length;
    expect(ours).toBe(viewer === null || viewer.email === OTHER ? 2 : viewer.role === 'admin' ? 6 : 4);
  });

  it('public posts (feed, search, member pages, digest): publicPostSql is maySeePost for nobody signed in', async () => {
    const all = await db.query<{ id: unknown; status: PostStatus; author_email: string }>('SELECT id, status, author_email FROM posts');
    const expected = all.filter((row) => isPublicPost({ status: row.status, authorEmail: row.author_email })).map((row) => Number(row.id));
    const seen = await db.query<{ id: unknown }>(`SELECT id FROM posts WHERE ${publicPostSql()}`);
    expect(sorted(seen.map((row) => Number(row.id)))).toEqual(sorted(expected));
  });

  it.each(VIEWERS)(
    'a post’s previous text and reason reach $label as mayReadPrevious and mayReadReason say, in SQL and on the wire',
    async ({ viewer }) => {
      const rows = await db.query<Record<string, unknown>>(
        `SELECT ${readablePostColumns('y', '$1', '$2')} FROM posts y WHERE y.id = ANY($3::bigint[]) ORDER BY y.id`,
        [...viewerParams(viewer), posts.map((post) => post.id)],
      );
      const raw = await db.query<Record<string, unknown>>('SELECT * FROM posts WHERE id = ANY($1::bigint[]) ORDER BY id', [
        posts.map((post) => post.id),
      ]);
      expect(rows).toHaveLength(posts.length);
      rows.forEach((row, index) => {
        const post = postById(Number(row.id))!;
        expect([row.previous !== null, row.reason !== null]).toEqual([mayReadPrevious(viewer), mayReadReason(post, viewer)]);
        const wire = toWirePost(raw[index]!, viewerParams(viewer)[0], viewer?.email);
        expect([wire.previous !== null, wire.reason !== null]).toEqual([mayReadPrevious(viewer), mayReadReason(post, viewer)]);
      });
    },
  );

  it.each(VIEWERS)(
    'replies: $label reads a reply’s text and files exactly as mayReadReply says, in SQL and on the wire',
    async ({ viewer }) => {
      const ids = replies.map((reply) => reply.id);
      const readable = await db.query<{ id: string }>(
        `SELECT r.id FROM replies r WHERE r.id = ANY($2::uuid[]) AND ${replyReadableSql(V, 'r')}`,
        [viewerParams(viewer)[0], ids],
      );
      expect(sorted(readable.map((row) => String(row.id)))).toEqual(
        sorted(replies.filter((reply) => mayReadReply(reply, viewer)).map((reply) => reply.id)),
      );
      const rows = await db.query<Record<string, unknown>>(
        `SELECT ${readableReplyColumns('x', '$1')} FROM replies x WHERE x.id = ANY($2::uuid[])`,
        [viewerParams(viewer)[0], ids],
      );
      const raw = await db.query<Record<string, unknown>>('SELECT * FROM replies WHERE id = ANY($1::uuid[])', [ids]);
      expect(rows).toHaveLength(replies.length);
      for (const row of rows) {
        const reply = replies.find((item) => item.id === String(row.id))!;
        const may = mayReadReply(reply, viewer);
        expect([row.content !== '', row.attachments !== null]).toEqual([may, may]);
        const wire = toWireReply(
          raw.find((item) => String(item.id) === reply.id)!,
          viewerParams(viewer)[0],
          viewer?.email,
        );
        expect([wire.content !== '', wire.attachments !== undefined]).toEqual([may, may]);
      }
    },
  );

  it('public replies (member pages, mention search): publicReplySql is isPublicReply, and member pages count by it', async () => {
    const seen = await db.query<{ id: string }>(
      `SELECT r.id FROM replies r JOIN posts p ON p.id = r.post_id WHERE r.id = ANY($1::uuid[]) AND ${publicReplySql('r', 'p')}`,
      [replies.map((reply) => reply.id)],
    );
    const expected = replies.filter((reply) => isPublicReply(reply, postById(reply.postId)!)).map((reply) => reply.id);
    expect(expected).toHaveLength(2);
    expect(sorted(seen.map((row) => String(row.id)))).toEqual(sorted(expected));
    const [author] = await db.query<{ member_id: string }>('SELECT member_id FROM users WHERE email = $1', [OTHER]);
    const profile = await memberProfile(db, author!.member_id);
    expect(profile?.replyCount).toBe(expected.length);
    const [writer] = await db.query<{ member_id: string }>('SELECT member_id FROM users WHERE email = $1', [AUTHOR]);
    const own = await memberProfile(db, writer!.member_id);
    expect(own?.approvedPosts).toBe(posts.filter((post) => post.authorEmail === AUTHOR && isPublicPost(post)).length);
  });

  it.each(VIEWERS)('files: $label may download exactly what maySeeFile allows (the download route’s SQL)', async ({ viewer }) => {
    const files = [...posts.map((post) => post.file), ...replies.map((reply) => reply.file), unclaimed];
    const userId = viewer ? users.get(viewer.email)! : -1;
    for (const file of files) {
      const [row] = await db.query<{
        uploaded: boolean;
        shown: string | null;
        conversation_name: string | null;
        only_in_messages: boolean;
        in_flagged_conversation: boolean;
      }>(
        `SELECT EXISTS (SELECT 1 FROM attachment_uploads u WHERE u.sha256 = a.sha256 AND u.user_id = $3) AS uploaded,
           ${visibleFileNameSql(V, 'a.sha256')} AS shown, ${messageFileSql(V, 'a.sha256')}
         FROM attachments a WHERE a.sha256 = $4`,
        [...viewerParams(viewer), userId, file],
      );
      const model = {
        uploadedByViewer: uploads.some((upload) => upload.file === file && upload.email === viewer?.email),
        posts: posts.filter((post) => post.file === file),
        replies: replies.filter((reply) => reply.file === file).map((reply) => ({ reply, post: postById(reply.postId)! })),
      };
      const may = mayDownloadFile(
        {
          uploadedByViewer: row!.uploaded,
          carriedWhereSeen: row!.shown !== null,
          inViewersConversation: row!.conversation_name !== null,
          onlyInMessages: row!.only_in_messages,
          inFlaggedConversation: row!.in_flagged_conversation,
        },
        viewer,
      );
      expect({ file, may }).toEqual({ file, may: maySeeFile(model, viewer) });
      // The name shown is the one a post or reply the viewer may see gives it.
      expect({ file, shown: row!.shown !== null }).toEqual({ file, shown: isCarriedWhereSeen(model, viewer) });
    }
  });

  it.each(VIEWERS.filter((person) => person.viewer !== null))(
    'notifications: $label is told of exactly what maySeeNotification allows (emails, lists)',
    async ({ viewer }) => {
      const userId = users.get(viewer!.email)!;
      const rows = await db.query<{ id: string; seen: boolean }>(
        `SELECT y.id, ${notificationSeenSql('y')} AS seen FROM notifications y WHERE y.user_id = $1`,
        [userId],
      );
      const mine = notes.filter((note) => note.userEmail === viewer!.email);
      expect(rows).toHaveLength(mine.length);
      for (const row of rows) {
        const note = mine.find((item) => item.id === String(row.id))!;
        const subject = { post: postById(note.postId), reply: replies.find((reply) => reply.id === note.replyId) };
        expect({ note, seen: row.seen }).toEqual({ note, seen: maySeeNotification(note, subject, viewer) });
      }
    },
  );

  it('likes: the PL/pgSQL like batch answers every viewer and post as likeOutcome does', async () => {
    const [someone] = users.values();
    const cases = VIEWERS.flatMap(({ viewer }) =>
      [...posts.map((post) => post.id), 8_999_999].map((postId) => ({ viewer, postId, opId: randomUUID() })),
    );
    const rows = await db.query<{ op_id: string; code: string | null }>('SELECT op_id, code FROM ie_like_batch($1::text::jsonb)', [
      JSON.stringify(
        cases.map(({ viewer, postId, opId }) => ({
          id: opId,
          user: someone,
          post: postId,
          count: 1,
          admin: viewerParams(viewer)[0],
          email: viewerParams(viewer)[1],
        })),
      ),
    ]);
    expect(rows).toHaveLength(cases.length);
    const answers = rows.map((row) => row.code ?? 'ok');
    expect(answers).toEqual(cases.map(({ viewer, postId }) => likeOutcome(postById(postId), viewer)));
    expect(new Set(answers)).toEqual(new Set(['ok', 'not_approved', 'not_found']));
  });

  it('conversations (issue 61): conversationReadableSql is mayReadConversation, for participants, one who left, others and admins', async () => {
    // The author writes to the other member; the admin takes part in a second one and left it.
    const withOther = randomUUID();
    const adminLeft = randomUUID();
    const places: Record<string, Record<string, { left: boolean }>> = {
      [withOther]: { [AUTHOR]: { left: false }, [OTHER]: { left: false } },
      [adminLeft]: { [AUTHOR]: { left: false }, [BOSS]: { left: true } },
    };
    for (const [id, members] of Object.entries(places)) {
      await db.query(`INSERT INTO conversations (id, subject, author_id, created_at, updated_at, seq) VALUES ($1, 's', $2, 1, 1, 1)`, [
        id,
        users.get(AUTHOR),
      ]);
      for (const [position, [email, place]] of Object.entries(members).entries()) {
        await db.query(`INSERT INTO conversation_members (conversation_id, user_id, position, left_at, seq) VALUES ($1, $2, $3, $4, 1)`, [
          id,
          users.get(email),
          position + 1,
          place.left ? 1 : null,
        ]);
      }
    }
    const answers: boolean[] = [];
    for (const { viewer } of VIEWERS) {
      for (const id of [withOther, adminLeft]) {
        const [row] = await db.query<{ readable: boolean }>(
          `SELECT $1::boolean AS admin, ${conversationReadableSql(V, 'c')} AS readable FROM conversations c WHERE c.id = $3`,
          [...viewerParams(viewer), id],
        );
        const place = viewer ? places[id]![viewer.email] : undefined;
        expect({ viewer, id, readable: row!.readable }).toEqual({ viewer, id, readable: mayReadConversation(place, viewer) });
        answers.push(row!.readable);
      }
    }
    expect(new Set(answers)).toEqual(new Set([true, false]));
  });
});

// Private categories (issue 61, item 3): a post in a category whose see_groups is not NULL is seen by
// admins and by members in one of its groups only (its author too only while in one), and never in
// what everyone sees. Every viewer (nobody, an author in the group, an author taken out of it, a
// member in it, a member in another group, a member in none, an admin) against posts of every status
// by both authors, in the private category and in a public one.
describe.each(BACKENDS)('private categories, SQL against the TypeScript rule, on %s', (backend) => {
  let db: Database;
  const WRITER = 'writer@example.com'; // in the group
  const LEAVER = 'leaver@example.com'; // was in the group, taken out
  const INSIDER = 'insider@example.com'; // in the group
  const NEIGHBOUR = 'neighbour@example.com'; // in another group only
  const STRANGER = 'stranger@example.com'; // in no group
  const CHIEF = 'chief@example.com'; // an admin, in no group
  const membership: Record<string, { group: string; in: boolean }[]> = {
    [WRITER]: [{ group: 'g-team', in: true }],
    [LEAVER]: [{ group: 'g-team', in: false }],
    [INSIDER]: [{ group: 'g-team', in: true }],
    [NEIGHBOUR]: [{ group: 'g-other', in: true }],
    [STRANGER]: [],
    [CHIEF]: [],
  };
  const users = new Map<string, number>();
  const groupsOf = (email: string) => membership[email]!.filter((place) => place.in).map((place) => place.group);
  const viewerOf = (email: string): Viewer => ({ email, role: email === CHIEF ? 'admin' : 'user', groups: groupsOf(email) });
  const PEOPLE: Person[] = [
    { label: 'nobody signed in', viewer: null },
    ...[WRITER, LEAVER, INSIDER, NEIGHBOUR, STRANGER, CHIEF].map((email) => ({ label: email.split('@')[0]!, viewer: viewerOf(email) })),
  ];
  const SEE: Record<string, string[] | null> = { Trends: null, Secret: ['g-team'] };
  const cases: (PostCase & { seeGroups: string[] | null; category: string })[] = [];
  const notes: { id: string; userEmail: string; postId: number }[] = [];

  beforeAll(async () => {
    db = await freshDatabase(backend);
    for (const email of Object.keys(membership)) {
      const [row] = await db.query<{ id: unknown }>(
        `INSERT INTO users (email, name, role, password_hash, member_id, email_verified_at) VALUES ($1, $2, $3, 'x', $4, 1) RETURNING id`,
        [email, email.split('@')[0], email === CHIEF ? 'admin' : 'user', `p-${email.split('@')[0]}`],
      );
      users.set(email, Number(row!.id));
    }
    for (const group of ['g-team', 'g-other']) {
      await db.query(`INSERT INTO groups (id, name, name_key, created_at, updated_at, seq) VALUES ($1, $1, $1, 1, 1, 1)`, [group]);
    }
    for (const [email, places] of Object.entries(membership)) {
      for (const place of places) {
        await db.query(`INSERT INTO group_members (group_id, user_id, in_group, at, seq) VALUES ($1, $2, $3, 1, 1)`, [
          place.group,
          users.get(email),
          place.in,
        ]);
      }
    }
    await db.query(`INSERT INTO categories (id, name, name_key, position, see_groups) VALUES ('Secret', 'Secret', 'secret', 9, $1)`, [
      SEE.Secret,
    ]);
    let id = 7_000_000;
    for (const category of Object.keys(SEE)) {
      for (const status of POST_STATUSES) {
        for (const authorEmail of [WRITER, LEAVER]) {
          const post = {
            ...pendingPost(id, { email: authorEmail, name: 'W', role: 'user' }, { title: `P${id}`, content: 'c', category }),
            status,
          };
          await db.query(INSERT_POST, insertParams(post, 1));
          const file = sha(id);
          await db.query(`INSERT INTO attachments (sha256, kind, mime, size, created_at) VALUES ($1, 'png', 'image/png', 1, 1)`, [file]);
          await db.query(`UPDATE posts SET attachments = $2::text::jsonb WHERE id = $1`, [
            id,
            JSON.stringify([{ sha256: file, name: 'p.png', mime: 'image/png', size: 1 }]),
          ]);
          cases.push({ id, status, authorEmail, file, seeGroups: SEE[category]!, category });
          for (const email of Object.keys(membership)) {
            const note = { id: randomUUID(), userEmail: email, postId: id };
            notes.push(note);
            await db.query(
              `INSERT INTO notifications (id, user_id, kind, post_id, reply_id, post_title, created_at, seq) VALUES ($1, $2, 'approved', $3, NULL, 't', 1, 1)`,
              [note.id, users.get(email), id],
            );
          }
          id++;
        }
      }
    }
  });
  afterAll(() => db.close());

  const ids = () => cases.map((post) => post.id);
  const caseById = (id: number) => cases.find((post) => post.id === id)!;

  it.each(PEOPLE)('posts: postVisibleSql lets $label see exactly what maySeePost does', async ({ viewer }) => {
    const seen = await db.query<{ id: unknown }>(`SELECT id FROM posts WHERE id = ANY($3::bigint[]) AND ${postVisibleSql(V)}`, [
      ...viewerParams(viewer),
      ids(),
    ]);
    const expected = cases.filter((post) => maySeePost(post, viewer)).map((post) => post.id);
    expect(sorted(seen.map((row) => Number(row.id)))).toEqual(sorted(expected));
    // The private category's posts: none to nobody, a stranger, a neighbour or the author taken out.
    const secret = cases.filter((post) => post.category === 'Secret' && maySeePost(post, viewer)).length;
    const email = viewer?.email;
    const expectedSecret = email === CHIEF ? 6 : email === WRITER ? 4 : email === INSIDER ? 2 : 0; // all; approved + own; approved only
    expect(secret).toBe(expectedSecret);
  });

  it.each(PEOPLE)('the forum’s pages and search: listedPostSql lets $label list exactly what isListedPost does', async ({ viewer }) => {
    const seen = await db.query<{ id: unknown }>(`SELECT id FROM posts y WHERE y.id = ANY($3::bigint[]) AND ${listedPostSql(V, 'y')}`, [
      ...viewerParams(viewer),
      ids(),
    ]);
    const expected = cases.filter((post) => isListedPost(post, viewer)).map((post) => post.id);
    expect(sorted(seen.map((row) => Number(row.id)))).toEqual(sorted(expected));
  });

  it('what everyone sees (feed, member pages, digest): publicPostSql is isPublicPost, which leaves private categories out', async () => {
    const seen = await db.query<{ id: unknown }>(`SELECT id FROM posts y WHERE y.id = ANY($1::bigint[]) AND ${publicPostSql('y')}`, [
      ids(),
    ]);
    const expected = cases.filter((post) => isPublicPost(post)).map((post) => post.id);
    expect(expected).toHaveLength(2);
    expect(expected.every((id) => caseById(id).category === 'Trends')).toBe(true);
    expect(sorted(seen.map((row) => Number(row.id)))).toEqual(sorted(expected));
    const [writer] = await db.query<{ member_id: string }>('SELECT member_id FROM users WHERE email = $1', [WRITER]);
    expect((await memberProfile(db, writer!.member_id))?.approvedPosts).toBe(1);
  });

  it.each(PEOPLE)('files: $label is given a post’s file exactly where isCarriedWhereSeen says', async ({ viewer }) => {
    for (const post of cases) {
      const [row] = await db.query<{ shown: string | null }>(
        `SELECT ${visibleFileNameSql(V, 'a.sha256')} AS shown FROM attachments a WHERE a.sha256 = $3`,
        [...viewerParams(viewer), post.file],
      );
      const model = { uploadedByViewer: false, posts: [post], replies: [] };
      expect({ id: post.id, shown: row!.shown !== null }).toEqual({ id: post.id, shown: isCarriedWhereSeen(model, viewer) });
    }
  });

  it.each(PEOPLE.filter((person) => person.viewer !== null))(
    'notifications: $label is told of exactly what maySeeNotification allows',
    async ({ viewer }) => {
      const rows = await db.query<{ id: string; seen: boolean }>(
        `SELECT y.id, ${notificationSeenSql('y')} AS seen FROM notifications y WHERE y.user_id = $1`,
        [users.get(viewer!.email)],
      );
      const mine = notes.filter((note) => note.userEmail === viewer!.email);
      expect(rows).toHaveLength(mine.length);
      for (const row of rows) {
        const note = mine.find((item) => item.id === String(row.id))!;
        const expected = maySeeNotification({ kind: 'approved', replyId: null }, { post: caseById(note.postId), reply: undefined }, viewer);
        expect({ note, seen: row.seen }).toEqual({ note, seen: expected });
      }
    },
  );

  it('likes: the PL/pgSQL like batch refuses a private post to whoever may not see it, as likeOutcome does', async () => {
    const likes = PEOPLE.flatMap(({ viewer }) => cases.map((post) => ({ viewer, postId: post.id, opId: randomUUID() })));
    const rows = await db.query<{ op_id: string; code: string | null }>('SELECT op_id, code FROM ie_like_batch($1::text::jsonb)', [
      JSON.stringify(
        likes.map(({ viewer, postId, opId }) => ({
          id: opId,
          // Nobody signed in never reaches the batch; here they stand as a member in no group with no email.
          user: users.get(viewer?.email ?? STRANGER),
          post: postId,
          count: 1,
          admin: viewerParams(viewer)[0],
          email: viewerParams(viewer)[1],
        })),
      ),
    ]);
    expect(rows).toHaveLength(likes.length);
    const answers = rows.map((row) => row.code ?? 'ok');
    expect(answers).toEqual(likes.map(({ viewer, postId }) => likeOutcome(caseById(postId), viewer)));
    expect(new Set(answers)).toEqual(new Set(['ok', 'not_approved', 'not_found']));
    // A member outside the group is answered not_found on the private category's approved posts.
    const strangerOnSecret = likes
      .map((like, index) => ({ like, answer: answers[index] }))
      .filter(({ like }) => like.viewer?.email === STRANGER && caseById(like.postId).category === 'Secret');
    expect(strangerOnSecret.map(({ answer }) => answer)).toEqual(strangerOnSecret.map(() => 'not_found'));
  });
});
