// reply: a member answers an approved post they may see, optionally quoting one of its replies (a
// quote of a reply that is gone, or of another post's, is dropped rather than refused). The reply's
// id is the op's. The post's author hears "replied", the quoted reply's author "quoted"; the post's
// count of visible replies follows. Its watchers hear "watching" (issue 62); nobody who muted the
// post hears anything of it.
import { notificationsForReply } from '../moderation';
import { newReply } from '../post-rules';
import { defineOp, refuse } from './define';
import { attachmentFields, namedFiles, replyText } from './fields';
import { subjectPost, tellMentioned, tellUnmuted, tellWatchers } from './rules';
import { followWhatTheyWrote } from './follow';

export const reply = defineOp('reply', 2, 'member', {
  limits: ['replies_per_day', 'seconds_between_replies'],
  wire: (z, f) => ({
    postId: f.postId,
    content: z.unknown(),
    quoteId: f.replyId.nullable().optional(),
    attachments: z.unknown().optional(),
  }),
  parse: (op) => ({
    postId: op.postId,
    content: replyText(op.content),
    quoteId: op.quoteId ?? undefined,
    // Named as on the wire: what ran is what is queued (a reply's files go to the server with it).
    attachments: op.attachments === undefined || op.attachments === null ? [] : attachmentFields(op.attachments),
  }),
  creates: 'reply',
  keeps: 'reply',
  files: (op) => namedFiles(op.attachments),
  async run(store, actor, { postId, content, quoteId, attachments: wanted }, context) {
    const post = await subjectPost(store, actor, postId, context);
    context.about(postId, context.id);
    if (post.status !== 'approved') refuse('replies_closed');
    // Every file named must be one this member uploaded (the server) or this device keeps (local-only).
    const attachments = wanted.length > 0 ? await store.attachments(actor, wanted) : [];
    if (!attachments) refuse('attachment_missing');
    const quoted = quoteId ? await store.reply(quoteId) : undefined;
    const quote = quoted && quoted.postId === postId && quoted.state !== 'deleted' ? quoted : null;
    const made = newReply(context.id, postId, await store.member(actor), content, quote ? quote.id : null, context.now);
    const row = attachments.length > 0 ? { ...made, attachments } : made;
    await store.insertReply(row);
    const about = { post, replyId: row.id, author: row };
    const told = await tellUnmuted(store, post, notificationsForReply(post, row, quote, actor), context.now);
    const mentioned = await tellMentioned(store, actor, content, about, context.now, told);
    await tellWatchers(store, actor, about, context.now, [...told, ...mentioned]);
    await store.recountComments(postId);
    await followWhatTheyWrote(store, actor, postId, row.createdAt, context.now);
  },
});
