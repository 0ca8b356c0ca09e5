// Messages on a connected device (issue 61): what the member writes is queued for the server; a
// refusal takes away what it made here and keeps its words as a draft with the refusal's sentence; a pull brings the member's conversations, and one they left
// leaves the device with its messages; another member signing in finds none of them.
import { describe, expect, it, vi } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { ATTACHMENT_CACHE, META_KEYS } from '../../../../src/db/contracts';
import { attachmentPath } from '../../../../src/db/saved/saved-files';
import { markConnected } from '../../../../src/db/ops/sync-meta';
import { nextBatch } from '../../../../src/db/ops/outbox';
import { rememberOwnMemberId } from '../../../../src/db/members/own-id';
import { applyPushResults } from '../../../../src/db/sync/apply-results';
import { applyPullPage } from '../../../../src/db/sync/apply-pull';
import { switchMember } from '../../../../src/db/sync/member-switch';
import { countUnreadMessages, listConversations, sendMessage, startConversation } from '../../../../src/db/messages/messages';
import type { Op, WireConversation, WireMessage } from '../../../../src/shared/protocol';
import { clearMessageDraft, readMessageDraft, readNewMessageDraft } from '../../../../src/db/messages/drafts';
import { filesNamedBy } from '../../../../src/db/ops/files-named';
import { keepFile } from '../../../../src/db/files/files';
import { signInAs } from '../../factories';
import { pullPage } from '../../sync/fixtures';
import { fakeCaches } from '../../fake-caches';

const MIA = 'mia@example.com';
const MY_ID = 'aaaaaaaaaaaaaaaa';
const NOOR_ID = 'bbbbbbbbbbbbbbbb';
const CONVERSATION = '0d000000-0000-4000-8000-0000000000d1';

async function connectedMember() {
  const session = signInAs(MIA, 'Mia');
  await markConnected();
  await rememberOwnMemberId(MIA, MY_ID);
  await db.meta.put({ key: META_KEYS.syncOwner, value: MIA });
  return session;
}

const conversation = (overrides: Partial<WireConversation> = {}): WireConversation => ({
  id: CONVERSATION,
  subject: 'Panel quotes',
  authorId: NOOR_ID,
  createdAt: 1,
  updatedAt: 2,
  participants: [
    { id: NOOR_ID, name: 'Noor', left: false },
    { id: MY_ID, name: 'Mia', left: false },
  ],
  lastReadAt: null,
  left: false,
  seq: 5,
  ...overrides,
});
const message = (id: string, body: string, createdAt: number): WireMessage => ({
  id,
  conversationId: CONVERSATION,
  authorId: NOOR_ID,
  author: 'Noor',
  body,
  createdAt,
  seq: 5,
});
const refuseAll = (code: string) => (ops: Op[]) => ops.map((op) => ({ id: op.id, status: 'refused' as const, code, reason: code }));

describe('messages on a connected device', () => {
  it('a new conversation is queued; refused, it leaves the device with its message', async () => {
    await connectedMember();
    const id = await startConversation([{ id: NOOR_ID, name: 'Noor' }], 'Fieldwork', 'Can we talk?');
    expect((await listConversations()).map((one) => one.subject)).toEqual(['Fieldwork']);
    const batch = await nextBatch(MIA, 100, Date.now());
    expect(batch.map((row) => row.op)).toEqual([
      {
        id: expect.any(String),
        type: 'startConversation',
        conversationId: id,
        recipients: [NOOR_ID],
        subject: 'Fieldwork',
        body: 'Can we talk?',
      },
    ]);
    await applyPushResults(batch, refuseAll('messages_closed')(batch.map((row) => row.op)), 0);
    expect(await db.conversations.count()).toBe(0);
    expect(await db.messages.count()).toBe(0);
  });

  it('a pull brings the member’s conversation and messages, counted unread; a refused message leaves', async () => {
    await connectedMember();
    await applyPullPage(
      pullPage({ conversations: [conversation()], messages: [message('0d000000-0000-4000-8000-0000000000e1', 'Hello.', 1)], cursor: 5 }),
      MIA,
    );
    expect(await countUnreadMessages()).toBe(1);
    await sendMessage(CONVERSATION, 'Hi Noor.');
    expect(await db.messages.count()).toBe(2);
    const batch = await nextBatch(MIA, 100, Date.now());
    await applyPushResults(batch, refuseAll('conversation_not_found')(batch.map((row) => row.op)), 5);
    expect((await db.messages.toArray()).map((one) => one.body)).toEqual(['Hello.']);
  });

  it('a page’s messages are kept in the conversations held here only', async () => {
    await connectedMember();
    const other = '0d000000-0000-4000-8000-0000000000d2';
    await applyPullPage(
      pullPage({
        conversations: [conversation()],
        messages: [
          message('0d000000-0000-4000-8000-0000000000e1', 'Hello.', 1),
          { ...message('0d000000-0000-4000-8000-0000000000e2', 'Elsewhere.', 2), conversationId: other },
          message('0d000000-0000-4000-8000-0000000000e3', 'Again.', 3),
        ],
        cursor: 5,
      }),
      MIA,
    );
    expect((await db.messages.toArray()).map((one) => one.body).sort()).toEqual(['Again.', 'Hello.']);
  });

  it('a refused message is kept as its conversation’s draft with the refusal’s sentence; a second joins it', async () => {
    await connectedMember();
    await applyPullPage(pullPage({ conversations: [conversation()], cursor: 5 }), MIA);
    await sendMessage(CONVERSATION, 'Hi Noor.');
    await sendMessage(CONVERSATION, 'Are you there?');
    const batch = await nextBatch(MIA, 100, Date.now());
    const refused = batch.map((row) => ({
      id: row.op.id,
      status: 'refused' as const,
      code: 'messages_per_day',
      reason: 'Slow down: 10 a day.',
    }));
    const refusals = await applyPushResults(batch, refused, 5);
    expect(refusals.map((one) => one.reason)).toEqual(['Slow down: 10 a day.', 'Slow down: 10 a day.']);
    expect(await db.messages.count()).toBe(0);
    expect(await readMessageDraft(CONVERSATION)).toEqual({ body: 'Hi Noor.\n\nAre you there?', reason: 'Slow down: 10 a day.' });
    await clearMessageDraft(CONVERSATION);
    expect(await readMessageDraft(CONVERSATION)).toBeUndefined();
  });

  it('a refused new conversation is kept as the New message draft, its recipients named; another member reads none of it', async () => {
    await connectedMember();
    const id = await startConversation([{ id: NOOR_ID, name: 'Noor' }], 'Fieldwork', 'Can we talk?');
    // Its recipients' names come from the conversation as it stood here (its participants as the
    // device wrote them); Noor is known here by the conversation pulled before.
    await db.conversations.update(id, {
      participants: [
        { id: MY_ID, name: 'Mia', left: false },
        { id: NOOR_ID, name: 'Noor', left: false },
      ],
    });
    const batch = await nextBatch(MIA, 100, Date.now());
    await applyPushResults(batch, refuseAll('messages_closed')(batch.map((row) => row.op)), 0);
    expect(await db.conversations.get(id)).toBeUndefined();
    expect(await readNewMessageDraft()).toEqual({
      conversationId: id,
      recipients: [{ id: NOOR_ID, name: 'Noor' }],
      subject: 'Fieldwork',
      body: 'Can we talk?',
      reason: 'messages_closed',
    });
    signInAs('omar@example.com', 'Omar');
    expect(await readNewMessageDraft()).toBeUndefined();
  });

  it('a message names the files attached to it, as a reply does (its push uploads them first)', async () => {
    await connectedMember();
    await applyPullPage(pullPage({ conversations: [conversation()], cursor: 5 }), MIA);
    const file = { sha256: 'b'.repeat(64), name: 'notes.txt', mime: 'text/plain', size: 5, width: null, height: null };
    await keepFile(MIA, { attachment: file, blob: new Blob(['notes']) });
    await sendMessage(CONVERSATION, 'See the notes.', [file]);
    const [row] = await nextBatch(MIA, 100, Date.now());
    expect(row!.op).toMatchObject({
      type: 'sendMessage',
      body: 'See the notes.',
      attachments: [{ sha256: file.sha256, name: 'notes.txt' }],
    });
    expect(filesNamedBy(row!.op)).toEqual([file.sha256]);
  });

  it('a conversation the member left leaves the device, with its messages and the cached copies of their files', async () => {
    const caches = fakeCaches();
    vi.stubGlobal('caches', caches.api);
    try {
      await connectedMember();
      const FILE = 'c'.repeat(64);
      const withFile: WireMessage = {
        ...message('0d000000-0000-4000-8000-0000000000e1', 'Hello.', 1),
        attachments: [{ sha256: FILE, name: 'quotas.csv', mime: 'text/csv', size: 3, width: null, height: null }],
      };
      await applyPullPage(pullPage({ conversations: [conversation()], messages: [withFile], cursor: 5 }), MIA);
      // Opened once: the service worker kept its copy (the server answers it to participants only).
      await (await caches.api.open(ATTACHMENT_CACHE)).put(attachmentPath(FILE), new Response('a,b'));
      await applyPullPage(pullPage({ conversations: [conversation({ left: true, seq: 6 })], cursor: 6 }), MIA);
      expect(await db.conversations.count()).toBe(0);
      expect(await db.messages.count()).toBe(0);
      expect(caches.stores.get(ATTACHMENT_CACHE)!.size).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('another member signing in on the device finds none of them', async () => {
    await connectedMember();
    await applyPullPage(
      pullPage({ conversations: [conversation()], messages: [message('0d000000-0000-4000-8000-0000000000e1', 'Hello.', 1)], cursor: 5 }),
      MIA,
    );
    const other = signInAs('omar@example.com', 'Omar');
    expect(await switchMember(other)).toBe(true);
    expect(await db.conversations.count()).toBe(0);
    expect(await db.messages.count()).toBe(0);
  });
});
