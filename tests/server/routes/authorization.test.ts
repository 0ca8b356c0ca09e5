// The authorization matrix: visitor, member (the author), another member and admin × every
// endpoint and operation, with the status code (and, for operations, the result) each one must get.
// The rows run in order, each role in turn (visitor, member, other, admin), on one forum.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberId } from '../../../src/shared/members';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, type Op } from '../../../src/shared/protocol';
import {
  Client,
  createOp,
  deletePostOp,
  deleteReplyOp,
  dismissFlagsOp,
  editPostOp,
  flagOp,
  hidePostOp,
  readNotificationsOp,
  editReplyOp,
  hideReplyOp,
  likeOp,
  replyOp,
  restoreReplyOp,
  renameOp,
  reviewOp,
  saveOp,
  setThemeOp,
  followOp,
  readPostOp,
  setAutoWatchOp,
  POLL,
  voteOp,
  closePollOp,
  viewOp,
} from '../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../support/databases';
import { testServer, type TestServer } from '../support/app';

type Role = 'visitor' | 'member' | 'other' | 'admin';
const ROLES: Role[] = ['visitor', 'member', 'other', 'admin'];

describe.each(BACKENDS)('authorization on %s', (backend) => {
  let server: TestServer;
  const clients = {} as Record<Role, Client>;
  let pendingId: number;
  let approvedId: number;
  /** The author's second pending post, for replies and views (the first is rejected on the way). */
  let stillPendingId: number;
  /** Replies on the approved post: two by the author, one by the admin. */
  let authorReply: string;
  let authorSecondReply: string;
  let adminReply: string;
  /** The author's post the deletions rows remove (pending), and a third member's approved post and reply (no role here wrote them). */
  let doomedId: number;
  let thirdPartyId: number;
  let thirdPartyReply: string;
  /** A third member's approved post that the moderation rows flag and hide. */
  let hideableId: number;
  /** The public ids of the author and of a member who never writes on the forum. */
  let authorId: string;
  let silentId: string;
  let adminId: string;
  /** The author's approved post with a poll, and their pending one with a poll. */
  let pollId: number;
  let pendingPollId: number;
  /** A file the author uploaded (in no post), one their pending post carries, one their approved post carries. */
  let authorFile: string;
  let pendingFile: string;
  let approvedFile: string;
  /** A file only the author's conversation with the third member carries (its first message's). */
  let messageFile: string;
  /** The author's conversation with the third member (issue 61), and the third member's public id. */
  const conversationId = randomUUID();
  const conversationFirstMessage = randomUUID();
  let thirdId: string;
  /** The group and the category private to it that the Groups and Categories rows make (issue 61); only the admin's ops apply. */
  const groupId = randomUUID();
  const privateCategoryId = randomUUID();

  beforeAll(async () => {
    server = await testServer(backend);
    for (const role of ROLES) clients[role] = new Client(server.app);
    await clients.member.join('author@example.com');
    await clients.other.join('other@example.com');
    await clients.admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    pendingId = await clients.member.createPost('Pending of the author');
    approvedId = await clients.member.createPost('Approved of the author');
    await clients.admin.push(reviewOp(approvedId));
    stillPendingId = await clients.member.createPost('Still pending of the author');
    authorReply = (await clients.member.reply(approvedId, 'The author’s reply.')).id;
    authorSecondReply = (await clients.member.reply(approvedId, 'The author’s second reply.')).id;
    adminReply = (await clients.admin.reply(approvedId, 'The admin’s reply.')).id;
    doomedId = await clients.member.createPost('To be deleted by the author');
    const third = new Client(server.app);
    await third.join('third@example.com');
    thirdPartyId = await third.createPost('A third member’s post');
    await clients.admin.push(reviewOp(thirdPartyId));
    thirdPartyReply = (await third.reply(approvedId, 'A third member’s reply.')).id;
    thirdId = (await third.request('GET', '/api/session')).body.user.id;
    hideableId = await third.createPost('Flag and hide me');
    await clients.admin.push(reviewOp(hideableId));
    authorId = (await clients.member.pull()).body.posts.find((post: { id: number }) => post.id === approvedId).authorId;
    const quiet = new Client(server.app);
    await quiet.join('quiet@example.com');
    silentId = (await quiet.request('GET', '/api/session')).body.user.id;
    // An account made before issue 59, its address never confirmed: nobody can mention it, so its
    // page answers as for nobody (a confirmed one can be mentioned, and its page opens).
    await server.db.query(`UPDATE users SET email_verified_at = NULL WHERE email = 'quiet@example.com'`);
    adminId = (await clients.admin.request('GET', '/api/session')).body.user.id;
    pollId = await clients.member.createPost('A poll of the author', POLL);
    await clients.admin.push(reviewOp(pollId));
    pendingPollId = await clients.member.createPost('A pending poll of the author', POLL);
    const uploaded = await uploadText(clients.member, 'The author’s notes.');
    expect(uploaded.status).toBe(200);
    authorFile = uploaded.body.sha256;
    pendingFile = (await uploadText(clients.member, 'In a pending post.')).body.sha256;
    approvedFile = (await uploadText(clients.member, 'In an approved post.')).body.sha256;
    await clients.member.createPost('A pending post with a file', { attachments: [{ sha256: pendingFile, name: 'pending.txt' }] });
    const withFile = await clients.member.createPost('An approved post with a file', {
      attachments: [{ sha256: approvedFile, name: 'a.txt' }],
    });
    await clients.admin.push(reviewOp(withFile));
    messageFile = (await uploadText(clients.member, 'Only between us.')).body.sha256;
    const started = await clients.member.push({
      id: conversationFirstMessage,
      type: 'startConversation',
      conversationId,
      recipients: [thirdId],
      subject: 'Between us',
      body: 'A private word.',
      attachments: [{ sha256: messageFile, name: 'between-us.txt' }],
    } as Op);
    expect(started.body.results[0].status).toBe('applied');
  });
  /** Which role a matrix row's client plays. */
  const roleOf = (client: Client) => ROLES.find((role) => clients[role] === client);
  afterAll(() => server.close());

  const matrix: [string, (client: Client) => Promise<{ status: number; outcome?: string }>, Record<Role, string>][] = [
    ['GET /api/health', async (c) => c.request('GET', '/api/health'), { visitor: '200', member: '200', other: '200', admin: '200' }],
    ['GET /api/ready', async (c) => c.request('GET', '/api/ready'), { visitor: '200', member: '200', other: '200', admin: '200' }],
    ['GET /api/session', async (c) => c.request('GET', '/api/session'), { visitor: '401', member: '200', other: '200', admin: '200' }],
    ['GET /api/events', async (c) => c.request('GET', '/api/events'), { visitor: '401', member: 'skip', other: 'skip', admin: 'skip' }],
    ['GET /api/changes', async (c) => c.pull(), { visitor: '401', member: '200', other: '200', admin: '200' }],
    [
      'push create',
      async (c) => opOutcome(c, createOp('New')),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push like (approved)',
      async (c) => opOutcome(c, likeOp(approvedId)),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push like (pending)',
      async (c) => opOutcome(c, likeOp(pendingId)),
      { visitor: '401', member: '200 not_approved', other: '200 not_found', admin: '200 not_approved' },
    ],
    [
      'push approve',
      async (c) => opOutcome(c, reviewOp(approvedId)),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 already_reviewed' },
    ],
    [
      'push reject',
      async (c) => opOutcome(c, reviewOp(pendingId, 'reject')),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push hidePost (the author’s rejected post)',
      async (c) => opOutcome(c, hidePostOp(pendingId)),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 not_on_forum' },
    ],
    [
      'push flag (a third member’s approved post)',
      async (c) => opOutcome(c, flagOp(hideableId)),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push flag (the same post again)',
      async (c) => opOutcome(c, flagOp(hideableId, null, 'off-topic')),
      { visitor: '401', member: '200 already_flagged', other: '200 already_flagged', admin: '200 already_flagged' },
    ],
    [
      'push flag (the author’s approved post)',
      async (c) => opOutcome(c, flagOp(approvedId)),
      { visitor: '401', member: '200 cannot_flag_own', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push flag (the author’s pending post)',
      async (c) => opOutcome(c, flagOp(stillPendingId)),
      { visitor: '401', member: '200 not_found', other: '200 not_found', admin: '200 not_found' },
    ],
    [
      'pulls the flags on the third member’s post',
      async (c) => seesFlags(c, hideableId),
      { visitor: '401', member: '200 1 flag, own', other: '200 1 flag, own', admin: '200 3 flags, all' },
    ],
    [
      'push dismissFlags',
      async (c) => opOutcome(c, dismissFlagsOp(approvedId)),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push hidePost (a third member’s approved post)',
      async (c) => opOutcome(c, hidePostOp(hideableId, 'Hidden in the matrix.')),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'pulls the hidden post’s reason',
      async (c) => seesReason(c, hideableId),
      { visitor: '401', member: '200 absent', other: '200 absent', admin: '200 Hidden in the matrix.' },
    ],
    [
      'push readNotifications',
      async (c) => opOutcome(c, readNotificationsOp([randomUUID()])),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push vote (the author’s approved poll)',
      async (c) => opOutcome(c, voteOp(pollId, [roleOf(c) === 'other' ? 1 : 0])),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'pulls the poll: the counts, and only one’s own ballot',
      async (c) => seesPoll(c, pollId),
      { visitor: '401', member: '200 2,1,0 own', other: '200 2,1,0 own', admin: '200 2,1,0 own' },
    ],
    [
      'push vote (the author’s pending poll)',
      async (c) => opOutcome(c, voteOp(pendingPollId)),
      { visitor: '401', member: '200 poll_not_open', other: '200 not_found', admin: '200 poll_not_open' },
    ],
    [
      'push vote (an option the poll does not have)',
      async (c) => opOutcome(c, voteOp(pollId, [7])),
      { visitor: '401', member: '200 invalid', other: '200 invalid', admin: '200 invalid' },
    ],
    [
      'push closePoll (the author’s poll)',
      async (c) => opOutcome(c, closePollOp(pollId)),
      { visitor: '401', member: '200 applied', other: '200 not_your_post', admin: '200 poll_closed' },
    ],
    [
      'push vote (the closed poll)',
      async (c) => opOutcome(c, voteOp(pollId)),
      { visitor: '401', member: '200 poll_closed', other: '200 poll_closed', admin: '200 poll_closed' },
    ],
    [
      'GET /api/members?q= (the editor’s @ mentions)',
      async (c) => c.request('GET', '/api/members?q=a'),
      { visitor: '401', member: '200', other: '200', admin: '200' },
    ],
    [
      'PUT /api/attachments/:sha256 (a text file)',
      async (c) => uploadText(c, `Notes of ${roleOf(c)}.`),
      { visitor: '401', member: '200', other: '200', admin: '200' },
    ],
    [
      'GET /api/attachments/:sha256 (the author’s file)',
      async (c) => c.request('GET', `/api/attachments/${authorFile}`),
      { visitor: '401', member: '200', other: '404', admin: '200' },
    ],
    [
      'GET /api/attachments/:sha256 (a file of the author’s pending post)',
      async (c) => c.request('GET', `/api/attachments/${pendingFile}`),
      { visitor: '401', member: '200', other: '404', admin: '200' },
    ],
    [
      'GET /api/attachments/:sha256 (a file of the author’s approved post)',
      async (c) => c.request('GET', `/api/attachments/${approvedFile}`),
      { visitor: '401', member: '200', other: '200', admin: '200' },
    ],
    [
      'push create naming the author’s file (only its uploader may)',
      async (c) => opOutcome(c, createOp('With the author’s file', { attachments: [{ sha256: authorFile, name: 'x.txt' }] })),
      { visitor: '401', member: '200 applied', other: '200 attachment_missing', admin: '200 attachment_missing' },
    ],
    ['GET /api/insights', async (c) => c.request('GET', '/api/insights'), { visitor: '401', member: '403', other: '403', admin: '200' }],
    [
      'push reply (approved)',
      async (c) => opOutcome(c, replyOp(approvedId)),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push reply (the author’s pending post)',
      async (c) => opOutcome(c, replyOp(stillPendingId)),
      { visitor: '401', member: '200 replies_closed', other: '200 not_found', admin: '200 replies_closed' },
    ],
    [
      'push reply (unknown post)',
      async (c) => opOutcome(c, replyOp(123)),
      { visitor: '401', member: '200 not_found', other: '200 not_found', admin: '200 not_found' },
    ],
    [
      'push view (approved)',
      async (c) => opOutcome(c, viewOp(approvedId)),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push view (the author’s pending post)',
      async (c) => opOutcome(c, viewOp(stillPendingId)),
      { visitor: '401', member: '200 applied', other: '200 not_found', admin: '200 applied' },
    ],
    [
      'push editReply (the author’s reply)',
      async (c) => opOutcome(c, editReplyOp(authorReply)),
      { visitor: '401', member: '200 applied', other: '200 not_your_reply', admin: '200 not_your_reply' },
    ],
    [
      'push editReply (unknown reply)',
      async (c) => opOutcome(c, editReplyOp(randomUUID())),
      { visitor: '401', member: '200 reply_not_found', other: '200 reply_not_found', admin: '200 reply_not_found' },
    ],
    [
      'push hideReply (the author’s reply)',
      async (c) => opOutcome(c, hideReplyOp(authorReply)),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'pulls the hidden reply',
      async (c) => seesReply(c, authorReply),
      { visitor: '401', member: '200 hidden, no text', other: '200 hidden, no text', admin: '200 hidden, with text' },
    ],
    [
      'push editReply (hidden)',
      async (c) => opOutcome(c, editReplyOp(authorReply)),
      { visitor: '401', member: '200 reply_hidden', other: '200 not_your_reply', admin: '200 not_your_reply' },
    ],
    [
      'push restoreReply (hidden)',
      async (c) => opOutcome(c, restoreReplyOp(authorReply)),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'pulls the restored reply',
      async (c) => seesReply(c, authorReply),
      { visitor: '401', member: '200 visible, with text', other: '200 visible, with text', admin: '200 visible, with text' },
    ],
    [
      'push deleteReply (the admin’s reply)',
      async (c) => opOutcome(c, deleteReplyOp(adminReply)),
      { visitor: '401', member: '200 not_your_reply', other: '200 not_your_reply', admin: '200 applied' },
    ],
    [
      'push deleteReply (the author’s reply; then it is gone)',
      async (c) => opOutcome(c, deleteReplyOp(authorSecondReply)),
      { visitor: '401', member: '200 applied', other: '200 reply_not_found', admin: '200 reply_not_found' },
    ],
    [
      'push hideReply (deleted)',
      async (c) => opOutcome(c, hideReplyOp(authorSecondReply)),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 reply_not_found' },
    ],
    [
      'push restoreReply (deleted)',
      async (c) => opOutcome(c, restoreReplyOp(authorSecondReply)),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 reply_not_found' },
    ],
    [
      'pulls the deleted reply',
      async (c) => seesReply(c, authorSecondReply),
      { visitor: '401', member: '200 deleted, no text', other: '200 deleted, no text', admin: '200 deleted, no text' },
    ],
    [
      'push deleteReply (a third member’s reply)',
      async (c) => opOutcome(c, deleteReplyOp(thirdPartyReply)),
      { visitor: '401', member: '200 not_your_reply', other: '200 not_your_reply', admin: '200 applied' },
    ],
    [
      'push editPost (the author’s approved post)',
      async (c) => opOutcome(c, editPostOp(approvedId, 'approved')),
      { visitor: '401', member: '200 applied', other: '200 not_your_post', admin: '200 not_your_post' },
    ],
    [
      'push editPost (the author’s pending post)',
      async (c) => opOutcome(c, editPostOp(stillPendingId, 'pending')),
      { visitor: '401', member: '200 applied', other: '200 not_found', admin: '200 not_your_post' },
    ],
    [
      'push editPost (edited as rejected, but approved)',
      async (c) => opOutcome(c, editPostOp(approvedId, 'rejected')),
      { visitor: '401', member: '200 edit_conflict', other: '200 not_your_post', admin: '200 not_your_post' },
    ],
    [
      'push editPost (unknown post)',
      async (c) => opOutcome(c, editPostOp(123, 'pending')),
      { visitor: '401', member: '200 not_found', other: '200 not_found', admin: '200 not_found' },
    ],
    [
      'push deletePost (a third member’s approved post)',
      async (c) => opOutcome(c, deletePostOp(thirdPartyId)),
      { visitor: '401', member: '200 not_your_post', other: '200 not_your_post', admin: '200 applied' },
    ],
    [
      'push deletePost (the author’s pending post; then it is gone)',
      async (c) => opOutcome(c, deletePostOp(doomedId)),
      { visitor: '401', member: '200 applied', other: '200 not_found', admin: '200 not_found' },
    ],
    [
      // The approved third-party post's tombstone goes to everyone; the member's pending one only to
      // the member and the admin, who could see it.
      'pulls the deleted posts',
      async (c) => seesRemoved(c, [thirdPartyId, doomedId]),
      { visitor: '401', member: '200 removed, no content', other: '200 not removed, no content', admin: '200 removed, no content' },
    ],
    [
      'pulls the deleted approved post',
      async (c) => seesRemoved(c, [thirdPartyId]),
      { visitor: '401', member: '200 removed, no content', other: '200 removed, no content', admin: '200 removed, no content' },
    ],
    [
      'sees the pending post',
      async (c) => seesPost(c, pendingId),
      { visitor: '401', member: '200 yes', other: '200 no', admin: '200 yes' },
    ],
    // Issue 44: the forum a page at a time, for a device that holds a window of it.
    [
      'GET /api/posts (newest: the approved post and its replies; never a pending one)',
      async (c) => pageOutcome(c, '/api/posts?limit=500', approvedId, stillPendingId),
      {
        visitor: '401',
        member: '200 approved with its replies',
        other: '200 approved with its replies',
        admin: '200 approved with its replies',
      },
    ],
    [
      'GET /api/posts?part=kept (the author’s own posts; to admins every post not approved)',
      async (c) => pageOutcome(c, '/api/posts?part=kept&limit=500', approvedId, stillPendingId),
      { visitor: '401', member: '200 approved with its replies, pending', other: '200 none', admin: '200 pending' },
    ],
    [
      'GET /api/posts/:id (the approved post)',
      async (c) => pageOutcome(c, `/api/posts/${approvedId}`, approvedId, stillPendingId),
      {
        visitor: '401',
        member: '200 approved with its replies',
        other: '200 approved with its replies',
        admin: '200 approved with its replies',
      },
    ],
    [
      'GET /api/posts/:id (the author’s pending post)',
      async (c) => pageOutcome(c, `/api/posts/${stillPendingId}`, approvedId, stillPendingId),
      { visitor: '401', member: '200 pending', other: '404', admin: '200 pending' },
    ],
    [
      'push save (approved)',
      async (c) => opOutcome(c, saveOp(approvedId)),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push save (the author’s pending post)',
      async (c) => opOutcome(c, saveOp(stillPendingId)),
      { visitor: '401', member: '200 not_saveable', other: '200 not_found', admin: '200 not_saveable' },
    ],
    [
      'push setTheme',
      async (c) => opOutcome(c, setThemeOp('dark')),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push follow (the approved post)',
      async (c) => opOutcome(c, followOp('post', String(approvedId))),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push follow (the author’s pending post)',
      async (c) => opOutcome(c, followOp('post', String(stillPendingId), 'muted')),
      { visitor: '401', member: '200 applied', other: '200 not_found', admin: '200 applied' },
    ],
    [
      'push follow (a category, a tag)',
      async (c) =>
        opOutcome(c, followOp(roleOf(c) === 'other' ? 'tag' : 'category', roleOf(c) === 'other' ? 'solar' : 'Case Studies', 'muted')),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push readPost (the approved post)',
      async (c) => opOutcome(c, readPostOp(approvedId, 1)),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push readPost (the author’s pending post)',
      async (c) => opOutcome(c, readPostOp(stillPendingId, 1)),
      { visitor: '401', member: '200 applied', other: '200 not_found', admin: '200 applied' },
    ],
    [
      'push setAutoWatch',
      async (c) => opOutcome(c, setAutoWatchOp(false)),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'push rename',
      async (c) => opOutcome(c, renameOp(`Renamed in the matrix ${roleOf(c)}`)),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'pulls their saved posts and preferences',
      async (c) => seesSavedAndPreferences(c),
      {
        visitor: '401',
        member: '200 saved 1, dark, Renamed in the matrix member',
        other: '200 saved 1, dark, Renamed in the matrix other',
        admin: '200 saved 1, dark, Renamed in the matrix admin',
      },
    ],
    [
      'GET /api/search (the author’s pending post, by the title of its edit: only approved posts)',
      async (c) => searchOutcome(c, 'An edited title', stillPendingId),
      { visitor: '401', member: '200 not found', other: '200 not found', admin: '200 not found' },
    ],
    [
      'GET /api/search is:mine (the author’s pending post: not on the forum, so not even its author finds it)',
      async (c) => searchOutcome(c, 'An edited title is:mine', stillPendingId),
      { visitor: '401', member: '200 not found', other: '200 not found', admin: '200 not found' },
    ],
    [
      'GET /api/members/:id (the author)',
      async (c) => c.request('GET', `/api/members/${authorId}`),
      { visitor: '401', member: '200', other: '200', admin: '200' },
    ],
    [
      'GET /api/members/:id (no such member)',
      async (c) => c.request('GET', `/api/members/${memberId('author@example.com')}`),
      { visitor: '401', member: '404', other: '404', admin: '404' },
    ],
    [
      'GET /api/members/:id (a member who never wrote on the forum, address unconfirmed: as if nobody; only they see it)',
      async (c) => c.request('GET', `/api/members/${silentId}`),
      { visitor: '401', member: '404', other: '404', admin: '404' },
    ],
    // Protocol 6: the Members tab's operations and the admin's reads and settings; only admins.
    [
      'push suspendMember (a member)',
      async (c) =>
        opOutcome(c, {
          id: randomUUID(),
          type: 'suspendMember',
          memberId: silentId,
          until: Date.now() + 86_400_000,
          reason: 'Test.',
        } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push silenceMember (a member)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'silenceMember', memberId: silentId, silenced: true } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push suspendMember (the admin: a staff account)',
      async (c) =>
        opOutcome(c, { id: randomUUID(), type: 'suspendMember', memberId: adminId, until: Date.now() + 86_400_000, reason: 'No.' } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 staff_member' },
    ],
    [
      'push deleteSpammer (a member)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'deleteSpammer', memberId: silentId } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'GET /api/admin/members',
      async (c) => c.request('GET', '/api/admin/members?q=a'),
      { visitor: '401', member: '403', other: '403', admin: '200' },
    ],
    [
      'GET /api/admin/members/:id',
      async (c) => c.request('GET', `/api/admin/members/${authorId}`),
      { visitor: '401', member: '403', other: '403', admin: '200' },
    ],
    ['GET /api/admin/log', async (c) => c.request('GET', '/api/admin/log'), { visitor: '401', member: '403', other: '403', admin: '200' }],
    [
      'GET /api/admin/limits',
      async (c) => c.request('GET', '/api/admin/limits'),
      { visitor: '401', member: '403', other: '403', admin: '200' },
    ],
    [
      'PUT /api/admin/limits',
      async (c) =>
        c.request('PUT', '/api/admin/limits', {
          name: 'flags_per_day',
          rule: { count: 20, seconds: 86400, firstDayCount: 5, firstDaySeconds: 86400 },
        }),
      { visitor: '401', member: '403', other: '403', admin: '200' },
    ],
    // Issue 63: two-step verification. Each account's own; the staff requirement is the admins'.
    [
      'POST /api/session/two-step (no password was given first)',
      async (c) => c.request('POST', '/api/session/two-step', { code: '123456' }),
      { visitor: '401', member: '401', other: '401', admin: '401' },
    ],
    [
      'GET /api/account/two-step',
      async (c) => c.request('GET', '/api/account/two-step'),
      { visitor: '401', member: '200', other: '200', admin: '200' },
    ],
    [
      'POST /api/account/two-step/disable (it is off)',
      async (c) => c.request('POST', '/api/account/two-step/disable', { code: '123456' }),
      { visitor: '401', member: '409', other: '409', admin: '409' },
    ],
    [
      'GET /api/admin/security',
      async (c) => c.request('GET', '/api/admin/security'),
      { visitor: '401', member: '403', other: '403', admin: '200' },
    ],
    [
      'PUT /api/admin/security (off)',
      async (c) => c.request('PUT', '/api/admin/security', { requireTwoStepForStaff: false }),
      { visitor: '401', member: '403', other: '403', admin: '200' },
    ],
    // Protocol 7 (issue 61): messages reach their participants only; admins do not browse them.
    [
      'push startConversation (to the third member; each has a visible reply on an approved post by now)',
      async (c) =>
        opOutcome(c, {
          id: randomUUID(),
          type: 'startConversation',
          conversationId: randomUUID(),
          recipients: [thirdId],
          subject: 'Hi',
          body: 'Hello.',
        } as Op),
      { visitor: '401', member: '200 applied', other: '200 applied', admin: '200 applied' },
    ],
    [
      'pulls the author’s conversation with the third member',
      async (c) => seesConversation(c, conversationId),
      { visitor: '401', member: '200 1 conversation, 1 message', other: '200 none', admin: '200 none' },
    ],
    [
      'GET /api/attachments/:sha256 (a file only the author’s conversation carries; no flag open)',
      async (c) => c.request('GET', `/api/attachments/${messageFile}`),
      { visitor: '401', member: '200', other: '404', admin: '404' },
    ],
    [
      'push sendMessage (the author’s conversation)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'sendMessage', conversationId, body: 'Me too.' } as Op),
      { visitor: '401', member: '200 applied', other: '200 conversation_not_found', admin: '200 conversation_not_found' },
    ],
    [
      'push readMessages (the author’s conversation)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'readMessages', conversationId } as Op),
      { visitor: '401', member: '200 applied', other: '200 conversation_not_found', admin: '200 conversation_not_found' },
    ],
    [
      'GET /api/admin/message-flags (the admins’ list of flagged messages)',
      async (c) => c.request('GET', '/api/admin/message-flags'),
      { visitor: '401', member: '403', other: '403', admin: '200' },
    ],
    [
      'GET /api/admin/message-flags/:id (no such flag)',
      async (c) => c.request('GET', `/api/admin/message-flags/${randomUUID()}`),
      { visitor: '401', member: '403', other: '403', admin: '404' },
    ],
    [
      'push flagMessage (the author’s own first message)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'flagMessage', messageId: conversationFirstMessage, reason: 'spam' } as Op),
      { visitor: '401', member: '200 cannot_flag_own', other: '200 conversation_not_found', admin: '200 conversation_not_found' },
    ],
    [
      'push dismissMessageFlags (the author’s first message)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'dismissMessageFlags', messageId: conversationFirstMessage } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push leaveConversation (the author’s conversation)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'leaveConversation', conversationId } as Op),
      { visitor: '401', member: '200 applied', other: '200 conversation_not_found', admin: '200 conversation_not_found' },
    ],
    // Protocol 7 (issue 61): groups and categories; only admins shape them. A member's pull carries the
    // groups they are in and, of a private category they may not see, its id alone.
    [
      'push createGroup',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'createGroup', groupId, name: 'Panel vendors', description: 'Vendors.' } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push createGroup (the name of another group, in capitals)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'createGroup', groupId: randomUUID(), name: 'PANEL VENDORS' } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 invalid' },
    ],
    [
      'push createGroup (a staff word as its name)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'createGroup', groupId: randomUUID(), name: 'Site Admin' } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 invalid' },
    ],
    [
      'push createGroup (a direction-changing character in its name)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'createGroup', groupId: randomUUID(), name: 'Vendors\u202Esrodnev' } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 invalid' },
    ],
    [
      'push editGroup (the group)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'editGroup', groupId, name: 'Panel vendors', description: 'Edited.' } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push editGroup (no such group)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'editGroup', groupId: randomUUID(), name: 'Nobody’s group' } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 not_found' },
    ],
    [
      'GET /api/admin/members?q= (the Groups tab’s "Find a member", by email)',
      async (c) => c.request('GET', '/api/admin/members?q=author%40example.com'),
      { visitor: '401', member: '403', other: '403', admin: '200' },
    ],
    [
      'push addGroupMember (the author into the group)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'addGroupMember', groupId, memberId: authorId } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push addGroupMember (no such member)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'addGroupMember', groupId, memberId: memberId('nobody@example.com') } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 member_not_found' },
    ],
    [
      'push addGroupMember (no such group)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'addGroupMember', groupId: randomUUID(), memberId: authorId } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 not_found' },
    ],
    [
      'push createCategory (seen and posted in by the group only)',
      async (c) => opOutcome(c, categoryOp('createCategory', privateCategoryId, 'Vendor room', [groupId], { position: 6 })),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push createCategory (seen by a group nobody has)',
      async (c) => opOutcome(c, categoryOp('createCategory', randomUUID(), 'Nobody’s room', [randomUUID()], { position: 7 })),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 not_found' },
    ],
    [
      'pulls the group and the private category (never its name to a member outside it)',
      async (c) => seesSpace(c, groupId, privateCategoryId, ['Panel vendors', 'Vendor room']),
      {
        visitor: '401',
        member: '200 in the group, the category, 0 places',
        other: '200 no group, the category’s id only, 0 places, no names leaked',
        admin: '200 the group, the category, 1 place',
      },
    ],
    [
      'push create (in the private category)',
      async (c) => opOutcome(c, createOp('In the vendor room', { category: privateCategoryId })),
      { visitor: '401', member: '200 applied', other: '200 invalid', admin: '200 applied' },
    ],
    [
      'GET /api/posts?category= (the private category)',
      async (c) => c.request('GET', `/api/posts?category=${privateCategoryId}`, undefined, { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) }),
      { visitor: '401', member: '200', other: '400', admin: '200' },
    ],
    [
      'GET /api/search?category= (the private category)',
      async (c) =>
        c.request('GET', `/api/search?q=vendor&category=${privateCategoryId}`, undefined, { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) }),
      { visitor: '401', member: '200', other: '400', admin: '200' },
    ],
    [
      'push editCategory (the private category)',
      async (c) => opOutcome(c, categoryOp('editCategory', privateCategoryId, 'Vendor room', [groupId])),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push editCategory (no such category)',
      async (c) => opOutcome(c, categoryOp('editCategory', randomUUID(), 'Nobody’s room', null)),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 not_found' },
    ],
    [
      'push moveCategory (the private category)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'moveCategory', categoryId: privateCategoryId, position: 8 } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push archiveCategory (the private category)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'archiveCategory', categoryId: privateCategoryId, archived: true } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push create (in the archived category)',
      async (c) => opOutcome(c, createOp('In the archived room', { category: privateCategoryId })),
      { visitor: '401', member: '200 invalid', other: '200 invalid', admin: '200 invalid' },
    ],
    [
      'push removeGroupMember (the author)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'removeGroupMember', groupId, memberId: authorId } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 applied' },
    ],
    [
      'push removeGroupMember (no such group)',
      async (c) => opOutcome(c, { id: randomUUID(), type: 'removeGroupMember', groupId: randomUUID(), memberId: authorId } as Op),
      { visitor: '401', member: '200 admins_only', other: '200 admins_only', admin: '200 not_found' },
    ],
    [
      'pulls the group and the private category after the author was taken out',
      async (c) => seesSpace(c, groupId, privateCategoryId, ['Panel vendors', 'Vendor room']),
      {
        visitor: '401',
        member: '200 the group gone, the category’s id only, 0 places, no names leaked',
        other: '200 no group, the category’s id only, 0 places, no names leaked',
        admin: '200 the group, the category, 1 place',
      },
    ],
    [
      'GET /api/posts?category= (the private category, once taken out of its group)',
      async (c) => c.request('GET', `/api/posts?category=${privateCategoryId}`, undefined, { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) }),
      { visitor: '401', member: '400', other: '400', admin: '200' },
    ],
    [
      'DELETE /api/session',
      async (c) => c.request('DELETE', '/api/session'),
      { visitor: '204', member: '204', other: '204', admin: '204' },
    ],
    [
      'GET /api/session after sign-out',
      async (c) => c.request('GET', '/api/session'),
      { visitor: '401', member: '401', other: '401', admin: '401' },
    ],
  ];

  for (const [name, call, expected] of matrix) {
    it(`${name}: ${ROLES.map((role) => `${role} ${expected[role]}`).join(', ')}`, async () => {
      for (const role of ROLES) {
        if (expected[role] === 'skip') continue; // a live stream never ends: covered by api/events.test.ts
        const answer = await call(clients[role]);
        expect(`${role} ${[answer.status, answer.outcome].filter(Boolean).join(' ')}`).toBe(`${role} ${expected[role]}`);
      }
    });
  }
});

/** A createCategory or editCategory op of `categoryId`: seen and posted in by `groups` (null: everyone). */
function categoryOp(
  type: 'createCategory' | 'editCategory',
  categoryId: string,
  name: string,
  groups: string[] | null,
  extra: Record<string, unknown> = {},
): Op {
  return { id: randomUUID(), type, categoryId, name, description: 'Private work.', see: groups, post: groups, ...extra } as Op;
}

/**
 * What a pull from the start gives `client` of the group `groupId` (in it, the group, gone, or none), of the
 * category `categoryId` (in full, its id alone, or none), how many places in the group it lists (admins' only),
 * and, to a member outside the group, whether any of `names` (the group's and the category's) is anywhere in it.
 */
async function seesSpace(client: Client, groupId: string, categoryId: string, names: string[]) {
  const answer = await client.pull();
  if (answer.status !== 200) return { status: answer.status };
  const group = (answer.body.groups as { id: string; member: boolean; gone: boolean }[]).find((one) => one.id === groupId);
  const category = (answer.body.categories as { id: string; gone: boolean }[]).find((one) => one.id === categoryId);
  const places = (answer.body.groupMembers as { groupId: string }[]).filter((one) => one.groupId === groupId).length;
  const outside = !group || group.gone;
  const leaked = names.some((name) => JSON.stringify(answer.body).includes(name));
  const parts = [
    !group ? 'no group' : group.gone ? 'the group gone' : group.member ? 'in the group' : 'the group',
    !category ? 'no category' : category.gone ? 'the category’s id only' : 'the category',
    `${places} place${places === 1 ? '' : 's'}`,
    ...(outside ? [leaked ? 'names leaked' : 'no names leaked'] : []),
  ];
  return { status: 200, outcome: parts.join(', ') };
}

/** What a pull from the start gives `client` of conversation `id`: the conversation and its messages, or none. */
async function seesConversation(client: Client, id: string) {
  const answer = await client.pull();
  if (answer.status !== 200) return { status: answer.status };
  const conversations = (answer.body.conversations as { id: string }[]).filter((one) => one.id === id);
  const messages = (answer.body.messages as { conversationId: string }[]).filter((one) => one.conversationId === id);
  const outcome =
    conversations.length === 0 && messages.length === 0 ? 'none' : `${conversations.length} conversation, ${messages.length} message`;
  return { status: answer.status, outcome };
}

async function opOutcome(client: Client, op: Parameters<Client['push']>[0]) {
  const answer = await client.push(op);
  const result = answer.body?.results?.[0];
  return { status: answer.status, outcome: result ? (result.status === 'refused' ? result.code : result.status) : undefined };
}

async function seesPost(client: Client, postId: number) {
  const answer = await client.pull();
  if (answer.status !== 200) return { status: answer.status };
  return { status: 200, outcome: answer.body.posts.some((post: { id: number }) => post.id === postId) ? 'yes' : 'no' };
}

/** How many flags on `postId` this member's pull carries, and whether they are all their own. */
async function seesFlags(client: Client, postId: number) {
  const answer = await client.pull();
  if (answer.status !== 200) return { status: answer.status };
  const session = (await client.request('GET', '/api/session')).body.user.email as string;
  const flags = (answer.body.flags as { postId: number; flaggerEmail: string }[]).filter((flag) => flag.postId === postId);
  const own = flags.every((flag) => flag.flaggerEmail === session);
  return { status: 200, outcome: `${flags.length} flag${flags.length === 1 ? '' : 's'}, ${own ? 'own' : 'all'}` };
}

/** The reason of `postId` as this member's pull carries it, or absent (no post, or no reason). */
/** Uploads a text file of `text` as `client`. */
function uploadText(client: Client, text: string) {
  const bytes = Buffer.from(text, 'utf8');
  return client.request('PUT', `/api/attachments/${createHash('sha256').update(bytes).digest('hex')}`, bytes, {
    'content-type': 'application/octet-stream',
    'x-file-name': 'notes.txt',
  });
}

/** A poll as this member's pull carries it: the counts, and whose ballots came with it. */
async function seesPoll(client: Client, postId: number) {
  const answer = await client.pull();
  if (answer.status !== 200) return { status: answer.status };
  const me = (await client.request('GET', '/api/session')).body.user.email as string;
  const poll = (answer.body.posts as { id: number; poll: { counts: number[]; ballots: Record<string, number[]> } | null }[]).find(
    (candidate) => candidate.id === postId,
  )?.poll;
  if (!poll) return { status: 200, outcome: 'absent' };
  const whose = Object.keys(poll.ballots);
  return {
    status: 200,
    outcome: `${poll.counts.join(',')} ${whose.length === 1 && whose[0] === me ? 'own' : `ballots of ${whose.length}`}`,
  };
}

async function seesReason(client: Client, postId: number) {
  const answer = await client.pull();
  if (answer.status !== 200) return { status: answer.status };
  const post = (answer.body.posts as { id: number; reason: string | null }[]).find((candidate) => candidate.id === postId);
  return { status: 200, outcome: post?.reason ?? 'absent' };
}

/** How a reply arrives in this member's pull: its state, and whether its text came with it. */
async function seesReply(client: Client, replyId: string) {
  const answer = await client.pull();
  if (answer.status !== 200) return { status: answer.status };
  const reply = answer.body.replies.find((candidate: { id: string }) => candidate.id === replyId);
  if (!reply) return { status: 200, outcome: 'absent' };
  return { status: 200, outcome: `${reply.state}, ${reply.content ? 'with text' : 'no text'}` };
}

/** Whether the deleted posts `postIds` come as removed ids in this member's pull, with none of their content. */
async function seesRemoved(client: Client, postIds: number[]) {
  const answer = await client.pull();
  if (answer.status !== 200) return { status: answer.status };
  const removed = (answer.body.removed as { id: number }[]).map((gone) => gone.id);
  const posts = (answer.body.posts as { id: number }[]).map((post) => post.id);
  const allRemoved = postIds.every((id) => removed.includes(id) && !posts.includes(id));
  const text = JSON.stringify(answer.body);
  const content = ['To be deleted by the author', 'A third member’s post'].some((title) => text.includes(title));
  return { status: 200, outcome: `${allRemoved ? 'removed' : 'not removed'}, ${content ? 'with content' : 'no content'}` };
}

/** This member's saved posts (saved ones) and preferences, as their pull carries them. */
async function seesSavedAndPreferences(client: Client) {
  const answer = await client.pull();
  if (answer.status !== 200) return { status: answer.status };
  const saved = (answer.body.saved as { saved: boolean }[]).filter((row) => row.saved).length;
  const preferences = answer.body.preferences as { theme: string; name: string } | null;
  return { status: 200, outcome: `saved ${saved}, ${preferences?.theme ?? 'none'}, ${preferences?.name ?? 'none'}` };
}

/**
 * What a page of GET /api/posts (or one post) holds of the author's approved post (with its replies: the three
 * written before the rows run, and those the rows add) and of their pending post; `none` when neither.
 */
async function pageOutcome(client: Client, path: string, approvedId: number, pendingId: number) {
  const answer = await client.request('GET', path, undefined, { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) });
  if (answer.status !== 200) return { status: answer.status };
  const ids = (answer.body.posts as { id: number }[]).map((post) => post.id);
  const replies = (answer.body.replies as { postId: number }[]).filter((reply) => reply.postId === approvedId).length;
  const parts = [
    ...(ids.includes(approvedId) ? [`approved${replies >= 3 ? ' with its replies' : ''}`] : []),
    ...(ids.includes(pendingId) ? ['pending'] : []),
  ];
  return { status: 200, outcome: parts.length ? parts.join(', ') : 'none' };
}

/** Whether a search for `q` finds the post `postId`. */
async function searchOutcome(client: Client, q: string, postId: number) {
  const answer = await client.request('GET', `/api/search?q=${encodeURIComponent(q)}`, undefined, {
    [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
  });
  if (answer.status !== 200) return { status: answer.status };
  const ids = (answer.body.posts as { id: number }[]).map((post) => post.id);
  return { status: 200, outcome: ids.includes(postId) ? 'found' : 'not found' };
}
