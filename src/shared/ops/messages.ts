// Messages (issue 61): a member starts a conversation with 1 to 20 confirmed members (a subject and a
// first message), sends a message in one they take part in, marks one read, leaves one. No review
// queue; limits instead: a member may send once one of their posts or replies is approved
// (`messages_closed`), and messages_per_day (stricter on the first day). Who reads what:
// mayReadConversation (visibility.ts): participants who have not left, nobody else.
import { validateMessageBody, validateRecipients, validateSubject } from '../messages';
import { mayReadConversation } from '../visibility';
import type { Actor } from '../post-rules';
import { check, defineOp, refuse, type OpContext } from './define';
import { attachmentFields, flagInput, namedFiles, textOf } from './fields';
import type { Attachment } from '../attachments';
import type { OpStore } from './store';

/** A message's body (validateMessageBody), trimmed. */
const bodyText = (value: unknown): string => {
  const text = textOf(value);
  check(validateMessageBody(text));
  return text.trim();
};

/** The member may send messages (else `messages_closed`; a device leaves it to its server). */
async function mayWrite(store: OpStore, actor: Actor): Promise<void> {
  if (actor.role === 'admin') return;
  if ((await store.mayMessage(actor)) === false) refuse('messages_closed');
}

/** The conversation `id` that `actor` may read (else `conversation_not_found`), with their public id. */
async function ownConversation(store: OpStore, actor: Actor, id: string) {
  const conversation = await store.conversation(id);
  const me = await store.memberId(actor);
  const mine = conversation?.participants.find((participant) => participant.id === me);
  if (!conversation || !mayReadConversation(mine, actor)) refuse('conversation_not_found');
  return { conversation, me };
}

/** The files a message names, as on the wire (none: an empty list). */
const namedAttachments = (value: unknown) => (value === undefined || value === null ? [] : attachmentFields(value));

/**
 * The message written now by `actor` in conversation `conversationId`, with the files it names: each
 * one this member uploaded (the server) or this device keeps, as a reply's (else `attachment_missing`).
 */
async function writeMessage(
  store: OpStore,
  actor: Actor,
  conversationId: string,
  body: string,
  wanted: readonly Pick<Attachment, 'sha256' | 'name'>[],
  context: OpContext,
): Promise<void> {
  const attachments = wanted.length > 0 ? await store.attachments(actor, wanted) : [];
  if (!attachments) refuse('attachment_missing');
  const author = await store.member(actor);
  await store.insertMessage({
    id: context.id,
    conversationId,
    authorId: await store.memberId(actor),
    author: author.name,
    body,
    createdAt: context.now,
    ...(attachments.length > 0 ? { attachments } : {}),
  });
}

export const startConversation = defineOp('startConversation', 7, 'member', {
  limits: ['messages_per_day'],
  creates: 'conversation',
  keeps: 'message',
  wire: (z, f) => ({
    conversationId: f.uuid,
    recipients: z.unknown(),
    subject: z.unknown(),
    body: z.unknown(),
    attachments: z.unknown().optional(),
  }),
  parse(op) {
    check(validateRecipients(op.recipients));
    const subject = textOf(op.subject);
    check(validateSubject(subject));
    const attachments = namedAttachments(op.attachments);
    return {
      conversationId: op.conversationId,
      recipients: op.recipients as string[],
      subject: subject.trim(),
      body: bodyText(op.body),
      // Named as on the wire (what ran is what is queued), and only when there are some.
      ...(attachments.length > 0 ? { attachments } : {}),
    };
  },
  files: (op) => namedFiles(op.attachments),
  async run(store, actor, { conversationId, recipients, subject, body, attachments }, context) {
    await mayWrite(store, actor);
    const me = await store.memberId(actor);
    check(validateRecipients(recipients, me));
    const found = await store.recipients(recipients);
    if (found !== 'unknown' && found.some((member) => member === undefined)) refuse('recipient_not_found');
    if (await store.conversation(conversationId)) refuse('conversation_not_found');
    const author = await store.member(actor);
    const others =
      found === 'unknown' ? recipients.map((id) => ({ id, name: '' })) : found.map((member) => ({ id: member!.id, name: member!.name }));
    await store.insertConversation({
      id: conversationId,
      subject,
      authorId: me,
      createdAt: context.now,
      updatedAt: context.now,
      participants: [{ id: me, name: author.name, left: false }, ...others.map((member) => ({ ...member, left: false }))],
    });
    await writeMessage(store, actor, conversationId, body, attachments ?? [], context);
    await store.readConversation(actor, conversationId, context.now);
  },
});

export const sendMessage = defineOp('sendMessage', 7, 'member', {
  limits: ['messages_per_day'],
  creates: 'message',
  keeps: 'message',
  wire: (z, f) => ({ conversationId: f.uuid, body: z.unknown(), attachments: z.unknown().optional() }),
  parse(op) {
    const attachments = namedAttachments(op.attachments);
    return { conversationId: op.conversationId, body: bodyText(op.body), ...(attachments.length > 0 ? { attachments } : {}) };
  },
  files: (op) => namedFiles(op.attachments),
  async run(store, actor, { conversationId, body, attachments }, context) {
    await ownConversation(store, actor, conversationId);
    await mayWrite(store, actor);
    await writeMessage(store, actor, conversationId, body, attachments ?? [], context);
    await store.readConversation(actor, conversationId, context.now);
  },
});

export const readMessages = defineOp('readMessages', 7, 'member', {
  whileSilenced: true,
  wire: (_z, f) => ({ conversationId: f.uuid }),
  parse: (op) => ({ conversationId: op.conversationId }),
  async run(store, actor, { conversationId }, context) {
    await ownConversation(store, actor, conversationId);
    await store.readConversation(actor, conversationId, context.now);
  },
});

export const leaveConversation = defineOp('leaveConversation', 7, 'member', {
  whileSilenced: true,
  wire: (_z, f) => ({ conversationId: f.uuid }),
  parse: (op) => ({ conversationId: op.conversationId }),
  async run(store, actor, { conversationId }, context) {
    await ownConversation(store, actor, conversationId);
    await store.leaveConversation(actor, conversationId, context.now);
  },
});

/**
 * flagMessage: a participant flags another's message to the admins (once; never their own). The
 * admins then open that conversation through the flag (GET /api/admin/message-flags/:id), which is
 * written to the staff log; they browse no other. A device keeps no flag of a message: its server does.
 */
export const flagMessage = defineOp('flagMessage', 7, 'member', {
  limits: ['flags_per_day'],
  sendUnchanged: true,
  wire: (z, f) => ({ messageId: f.uuid, reason: z.unknown(), text: z.unknown().optional() }),
  parse(op) {
    const { reason, text } = flagInput(op.reason, op.text);
    return { messageId: op.messageId, reason, text };
  },
  async run(store, actor, { messageId, reason, text }, context) {
    const message = await store.message(messageId);
    if (!message) refuse('conversation_not_found');
    const { me } = await ownConversation(store, actor, message.conversationId);
    if (message.authorId === me) refuse('cannot_flag_own');
    if (!(await store.flagMessage(actor, message, { id: context.id, reason, text, at: context.now }))) refuse('already_flagged');
  },
});
