// @vitest-environment happy-dom
// Messages (issue 61, item 5): /messages lists the member's conversations and opens "New message"
// (To offers members by name, as @ does; Subject; Message; Send message); a member who may not send
// yet is told why; a local-only device says messages need the server. /messages/:id: its subject as
// the heading, "Participants", "Your reply" and "Leave conversation". The header's Messages link
// counts unread messages in its description.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

// A message's files ask the mode as a reply's do; this device is connected (no health check to make).
vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => 'connected' }));
import { db } from '../../../../src/db/storage/schema';
import { rememberOwnMemberId } from '../../../../src/db/members/own-id';
import { MessagesScreen } from '../../../../src/features/messages/messages-screen';
import { ConversationView } from '../../../../src/features/messages/conversation-view';
import { AppShell } from '../../../../src/components/layouts/app-shell';
import { MESSAGE_LIMITS, MESSAGES_CLOSED } from '../../../../src/shared/messages';
import { messageDraftKey, newMessageDraftKey } from '../../../../src/db/messages/drafts';
import { makePost, signInAs, storePosts } from '../../factories';

afterEach(cleanup);

const ME = 'mia@example.com';
const MY_ID = 'aaaaaaaaaaaaaaaa';
const NOOR_ID = 'bbbbbbbbbbbbbbbb';
const CONVERSATION = '0d000000-0000-4000-8000-0000000000d1';

async function member({ approved }: { approved: boolean }) {
  signInAs(ME, 'Mia');
  await rememberOwnMemberId(ME, MY_ID);
  if (approved) await storePosts(makePost({ id: 5, authorEmail: ME, author: 'Mia', status: 'approved' }));
}

async function conversationWithNoor() {
  await db.conversations.add({
    id: CONVERSATION,
    subject: 'Panel quotes',
    authorId: NOOR_ID,
    createdAt: 1,
    updatedAt: 2,
    participants: [
      { id: NOOR_ID, name: 'Noor', left: false },
      { id: MY_ID, name: 'Mia', left: false },
    ],
    email: ME,
    lastReadAt: null,
    left: false,
    seq: 1,
  });
  await db.messages.bulkAdd([
    {
      id: '0d000000-0000-4000-8000-0000000000e1',
      conversationId: CONVERSATION,
      authorId: NOOR_ID,
      author: 'Noor',
      body: 'Hello **Mia**.',
      createdAt: 1,
      seq: 1,
    },
    {
      id: '0d000000-0000-4000-8000-0000000000e2',
      conversationId: CONVERSATION,
      authorId: NOOR_ID,
      author: 'Noor',
      body: 'Any news?',
      createdAt: 2,
      seq: 1,
    },
  ]);
}

const messagesAt = (connected: boolean, search?: (typed: string) => Promise<{ id: string; name: string }[]>) =>
  render(
    <MemoryRouter initialEntries={['/messages']}>
      <Routes>
        <Route path="/messages" element={<MessagesScreen connected={connected} search={search} />} />
        <Route path="/messages/:id" element={<p>Opened conversation</p>} />
      </Routes>
    </MemoryRouter>,
  );

describe('/messages', () => {
  it('on a local-only device: says messages need the server, and offers no New message', async () => {
    await member({ approved: true });
    messagesAt(false);
    expect(screen.getByRole('heading', { name: 'Messages' })).toBeTruthy();
    expect(screen.getByText(/^Messages need the server/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New message' })).toBeNull();
  });

  it('to a member with nothing approved yet: says when messages open, and offers no New message', async () => {
    await member({ approved: false });
    messagesAt(true);
    expect(await screen.findByText(MESSAGES_CLOSED)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New message' })).toBeNull();
  });

  it('lists the member’s conversations with their unread counts', async () => {
    await member({ approved: true });
    await conversationWithNoor();
    messagesAt(true);
    const list = await screen.findByRole('list', { name: 'Conversations' });
    expect(within(list).getByRole('link', { name: 'Panel quotes' }).getAttribute('href')).toBe(`/messages/${CONVERSATION}`);
    expect(within(list).getByLabelText('2 unread messages')).toBeTruthy();
    // Who Mia writes with: Noor, who started it, not Mia herself.
    expect(within(list).getByText('Noor')).toBeTruthy();
    expect(within(list).queryByText('Mia')).toBeNull();
  });

  it('says when each conversation last had a message', async () => {
    await member({ approved: true });
    await conversationWithNoor();
    const at = Date.now() - 5 * 60_000;
    await db.conversations.update(CONVERSATION, { updatedAt: at });
    messagesAt(true);
    const item = within(await screen.findByRole('list', { name: 'Conversations' })).getByRole('listitem');
    const time = within(item).getByText('5 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe(new Date(at).toISOString());
  });

  it('New message: To offers members by name, then Subject and Message; Send message starts it and opens it', async () => {
    await member({ approved: true });
    const search = vi.fn(async (typed: string) => (typed.startsWith('No') ? [{ id: NOOR_ID, name: 'Noor' }] : []));
    messagesAt(true, search);
    fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    const to = within(dialog).getByRole('combobox', { name: 'To' });
    // A name nobody has is said so; the list stays shut.
    fireEvent.change(to, { target: { value: 'Zed' } });
    expect((await within(dialog).findByText('No member matches.')).getAttribute('role')).toBe('status');
    expect(to.getAttribute('aria-expanded')).toBe('false');
    fireEvent.change(to, { target: { value: 'No' } });
    fireEvent.click(await within(dialog).findByRole('option', { name: 'Noor' }));
    expect(within(dialog).queryByText('No member matches.')).toBeNull();
    expect(within(dialog).getByRole('list', { name: 'Recipients' }).textContent).toContain('Noor');
    expect(search).toHaveBeenCalledWith('No');
    // The one match chosen already: nobody else.
    fireEvent.change(to, { target: { value: 'No' } });
    expect(await within(dialog).findByText('No other member matches.')).toBeTruthy();
    fireEvent.change(to, { target: { value: '' } });
    fireEvent.change(within(dialog).getByLabelText('Subject'), { target: { value: 'Fieldwork' } });
    fireEvent.change(within(dialog).getByLabelText('Message'), { target: { value: 'Can we talk?' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Opened conversation')).toBeTruthy();
    const [started] = await db.conversations.toArray();
    expect(started).toMatchObject({ subject: 'Fieldwork', email: ME });
    expect(started!.participants.map((one) => one.id)).toEqual([MY_ID, NOOR_ID]);
    expect((await db.messages.toArray()).map((one) => one.body)).toEqual(['Can we talk?']);
  });

  it('To works from the keyboard as a combobox: ↓ and ↑ move, Enter chooses (it sends nothing), Escape closes the list only; the focus stays in To', async () => {
    await member({ approved: true });
    const OMAR = { id: 'cccccccccccccccc', name: 'Nora Omar' };
    messagesAt(true, async () => [{ id: NOOR_ID, name: 'Noor' }, OMAR]);
    fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    const to = within(dialog).getByRole('combobox', { name: 'To' });
    to.focus();
    fireEvent.change(to, { target: { value: 'No' } });
    const active = () => document.getElementById(to.getAttribute('aria-activedescendant') ?? '')?.textContent;
    await waitFor(() => expect(active()).toBe('Noor'));
    fireEvent.keyDown(to, { key: 'ArrowDown' });
    expect(active()).toBe('Nora Omar');
    expect(within(dialog).getByRole('option', { name: 'Nora Omar' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(to, { key: 'ArrowDown' });
    expect(active()).toBe('Noor');
    fireEvent.keyDown(to, { key: 'ArrowUp' });
    expect(active()).toBe('Nora Omar');
    fireEvent.keyDown(to, { key: 'Enter' });
    expect(within(within(dialog).getByRole('list', { name: 'Recipients' })).getByRole('listitem').textContent).toContain('Nora Omar');
    expect(within(dialog).queryByText('Choose at least one member to write to.')).toBeNull();
    expect(document.activeElement).toBe(to);
    // Escape closes the list, not the dialog; typing again opens it.
    fireEvent.change(to, { target: { value: 'Noo' } });
    await waitFor(() => expect(to.getAttribute('aria-expanded')).toBe('true'));
    fireEvent.keyDown(to, { key: 'Escape' });
    expect(to.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('dialog', { name: 'New message' })).toBeTruthy();
    // A click on an option keeps the focus in To too.
    fireEvent.change(to, { target: { value: 'Noor' } });
    fireEvent.click(await within(dialog).findByRole('option', { name: 'Noor' }));
    expect(document.activeElement).toBe(to);
    expect(await db.conversations.count()).toBe(0);
  });

  it('To keeps the focus after the last member it takes is chosen (read-only then, not disabled), and after a Remove', async () => {
    await member({ approved: true });
    const named = (typed: string) => ({ id: typed.slice(1).padStart(16, 'd'), name: `Member ${typed.slice(1)}` });
    messagesAt(true, async (typed) => [named(typed)]);
    fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    const to = within(dialog).getByRole('combobox', { name: 'To' }) as HTMLInputElement;
    // The dialog opens in To.
    await waitFor(() => expect(document.activeElement).toBe(to));
    for (let n = 1; n <= MESSAGE_LIMITS.maxRecipients; n += 1) {
      fireEvent.change(to, { target: { value: `m${n}` } });
      fireEvent.click(await within(dialog).findByRole('option', { name: `Member ${n}` }));
    }
    expect(within(within(dialog).getByRole('list', { name: 'Recipients' })).getAllByRole('listitem')).toHaveLength(
      MESSAGE_LIMITS.maxRecipients,
    );
    expect(to.disabled).toBe(false);
    expect(to.readOnly).toBe(true);
    expect(to.placeholder).toBe(`At most ${MESSAGE_LIMITS.maxRecipients} members`);
    expect(document.activeElement).toBe(to);
    const remove = within(dialog).getByRole('button', { name: 'Remove Member 7' });
    remove.focus();
    fireEvent.click(remove);
    expect(within(dialog).queryByRole('button', { name: 'Remove Member 7' })).toBeNull();
    expect(document.activeElement).toBe(to);
    expect(to.readOnly).toBe(false);
  });

  it('New message never offers the member writing it (a message to oneself alone is refused)', async () => {
    await member({ approved: true });
    const search = vi.fn(async () => [
      { id: MY_ID, name: 'Mia' },
      { id: NOOR_ID, name: 'Mila' },
    ]);
    messagesAt(true, search);
    fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'To' }), { target: { value: 'Mi' } });
    expect(await within(dialog).findByRole('option', { name: 'Mila' })).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Mila']);
  });

  it('a new message the server refused: its sentence, and Open draft brings it back into New message', async () => {
    await member({ approved: true });
    await db.meta.put({
      key: newMessageDraftKey(ME),
      value: {
        conversationId: CONVERSATION,
        recipients: [{ id: NOOR_ID, name: 'Noor' }],
        subject: 'Fieldwork',
        body: 'Can we talk?',
        reason: 'You can send 3 messages on your first day.',
      },
    });
    messagesAt(true, async () => []);
    expect(await screen.findByText(/^Your message was not sent: You can send 3 messages on your first day\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open draft' }));
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    expect(within(dialog).getByText(/^Your message was not sent: You can send 3/)).toBeTruthy();
    expect(within(dialog).getByRole('list', { name: 'Recipients' }).textContent).toContain('Noor');
    expect((within(dialog).getByLabelText('Subject') as HTMLInputElement).value).toBe('Fieldwork');
    expect((within(dialog).getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Can we talk?');
    // Sent again, the draft is gone.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Opened conversation')).toBeTruthy();
    await waitFor(async () => expect(await db.meta.get(newMessageDraftKey(ME))).toBeUndefined());
  });

  it('New message keeps all of a message past its limit, counts it, and refuses it in words', async () => {
    await member({ approved: true });
    messagesAt(true, async () => []);
    fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    const body = within(dialog).getByLabelText('Message') as HTMLTextAreaElement;
    expect(body.hasAttribute('maxlength')).toBe(false);
    fireEvent.change(body, { target: { value: 'm'.repeat(MESSAGE_LIMITS.body + 40) } });
    expect(body.value).toHaveLength(MESSAGE_LIMITS.body + 40);
    expect(document.getElementById(body.getAttribute('aria-describedby')!)!.textContent).toContain(
      'A message can be at most 10,000 characters: remove 40.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await within(dialog).findByText('Message can be at most 10,000 characters (it has 10,040).')).toBeTruthy();
    expect(body.value).toHaveLength(MESSAGE_LIMITS.body + 40);
    expect(await db.conversations.count()).toBe(0);
  });

  it('New message refuses to send without a recipient, in words', async () => {
    await member({ approved: true });
    messagesAt(true, async () => []);
    fireEvent.click(await screen.findByRole('button', { name: 'New message' }));
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await within(dialog).findByText('Choose at least one member to write to.')).toBeTruthy();
    expect(await db.conversations.count()).toBe(0);
  });
});

describe('/messages/:id', () => {
  const open = () =>
    render(
      <MemoryRouter initialEntries={[`/messages/${CONVERSATION}`]}>
        <Routes>
          <Route path="/messages/:id" element={<ConversationView id={CONVERSATION} />} />
          <Route path="/messages" element={<p>Back at Messages</p>} />
        </Routes>
      </MemoryRouter>,
    );

  it('shows its subject, Participants and its messages, and marks it read', async () => {
    await member({ approved: true });
    await conversationWithNoor();
    open();
    expect(await screen.findByRole('heading', { name: 'Panel quotes' })).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Participants' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Noor', 'Mia']);
    expect(await screen.findByText('Any news?')).toBeTruthy();
    await waitFor(async () => expect((await db.conversations.get(CONVERSATION))!.lastReadAt).not.toBeNull());
  });

  it('says when each message was written, and which of the member’s are not sent yet', async () => {
    await member({ approved: true });
    await conversationWithNoor();
    const at = Date.now() - 2 * 3_600_000;
    await db.messages.update('0d000000-0000-4000-8000-0000000000e2', { createdAt: at });
    open();
    const messages = await screen.findByRole('list', { name: 'Messages' });
    const noors = within(messages).getAllByRole('listitem')[1]!;
    expect(within(noors).getByText('2 hours ago').getAttribute('datetime')).toBe(new Date(at).toISOString());
    expect(within(messages).queryByText('Not sent yet')).toBeNull();
    fireEvent.change(screen.getByLabelText('Your reply'), { target: { value: 'On my way.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const mine = await within(messages).findByText('On my way.');
    const item = mine.closest('li')!;
    expect(within(item).getByText('Just now').tagName).toBe('TIME');
    expect(within(item).getByText('Not sent yet')).toBeTruthy();
  });

  it('Your reply keeps all of a message past its limit, counts it, and sends nothing', async () => {
    await member({ approved: true });
    await conversationWithNoor();
    open();
    const box = (await screen.findByLabelText('Your reply')) as HTMLTextAreaElement;
    expect(box.hasAttribute('maxlength')).toBe(false);
    fireEvent.change(box, { target: { value: 'm'.repeat(MESSAGE_LIMITS.body + 1) } });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-describedby')!)!.textContent).toContain('remove 1.');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Message can be at most 10,000 characters (it has 10,001).')).toBeTruthy();
    expect(box.value).toHaveLength(MESSAGE_LIMITS.body + 1);
    expect(await db.messages.count()).toBe(2);
  });

  it('Your reply sends a message; Leave conversation leaves it', async () => {
    await member({ approved: true });
    await conversationWithNoor();
    open();
    fireEvent.change(await screen.findByLabelText('Your reply'), { target: { value: 'Tomorrow.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(async () => expect((await db.messages.toArray()).map((one) => one.body)).toContain('Tomorrow.'));
    // Sent, the box is empty and has the focus for the next words (Send was disabled while it sent).
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Your reply')));
    expect((screen.getByLabelText('Your reply') as HTMLTextAreaElement).value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Leave conversation' }));
    expect(await screen.findByText('Back at Messages')).toBeTruthy();
    expect((await db.conversations.get(CONVERSATION))!.left).toBe(true);
  });

  it('offers Flag on others’ messages only; a flag sent closes the dialog', async () => {
    await member({ approved: true });
    await conversationWithNoor();
    await db.messages.add({
      id: '0d000000-0000-4000-8000-0000000000e3',
      conversationId: CONVERSATION,
      authorId: MY_ID,
      author: 'Mia',
      body: 'Mine.',
      createdAt: 3,
      seq: 1,
    });
    open();
    expect(await screen.findByText('Mine.')).toBeTruthy();
    expect(await screen.findAllByRole('button', { name: 'Flag the message of Noor' })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Flag the message of Mia' })).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: 'Flag the message of Noor' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Flag message' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send flag' }));
    expect(await within(dialog).findByText('Please choose a reason.')).toBeTruthy();
    fireEvent.click(within(dialog).getByLabelText('Spam'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send flag' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Flag message' })).toBeNull());
  });

  it('on a local-only device (a link followed there): says messages need the server, shows none of it', async () => {
    await member({ approved: true });
    await conversationWithNoor();
    render(
      <MemoryRouter initialEntries={[`/messages/${CONVERSATION}`]}>
        <ConversationView id={CONVERSATION} connected={false} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Messages' })).toBeTruthy();
    expect(screen.getByText(/^Messages need the server/)).toBeTruthy();
    expect(screen.queryByText('Any news?')).toBeNull();
    expect(screen.queryByLabelText('Your reply')).toBeNull();
  });

  it('shows a message’s files as a reply’s, and its reply box offers Attach', async () => {
    await member({ approved: true });
    await conversationWithNoor();
    await db.messages.update('0d000000-0000-4000-8000-0000000000e2', {
      attachments: [{ sha256: 'a'.repeat(64), name: 'quotas.csv', mime: 'text/csv', size: 2048, width: null, height: null }],
    });
    open();
    const files = await screen.findByRole('region', { name: 'Attachments' });
    expect(files.textContent).toContain('quotas.csv');
    expect(screen.getByRole('button', { name: 'Attach' })).toBeTruthy();
  });

  it('a message the server refused comes back into Your reply with its sentence; sent again, the draft is gone', async () => {
    await member({ approved: true });
    await conversationWithNoor();
    await db.meta.put({ key: messageDraftKey(ME, CONVERSATION), value: { body: 'See you at 10.', reason: 'Slow down.' } });
    open();
    expect(await screen.findByText('Your message was not sent: Slow down. It is kept below as a draft.')).toBeTruthy();
    const box = (await screen.findByLabelText('Your reply')) as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe('See you at 10.'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(async () => expect((await db.messages.toArray()).map((one) => one.body)).toContain('See you at 10.'));
    expect(await db.meta.get(messageDraftKey(ME, CONVERSATION))).toBeUndefined();
    await waitFor(() => expect(screen.queryByText(/Your message was not sent/)).toBeNull());
    // Refused again with the same words: they come back into the box again (it was emptied by Send).
    await db.meta.put({ key: messageDraftKey(ME, CONVERSATION), value: { body: 'See you at 10.', reason: 'Slow down.' } });
    expect(await screen.findByText('Your message was not sent: Slow down. It is kept below as a draft.')).toBeTruthy();
    await waitFor(() => expect(box.value).toBe('See you at 10.'));
  });

  it('a conversation gone from the device (left elsewhere) keeps a refused message readable, to copy, until discarded', async () => {
    await member({ approved: true });
    await db.meta.put({
      key: messageDraftKey(ME, CONVERSATION),
      value: { body: 'See you at 10.', reason: 'This conversation is not available to you.' },
    });
    open();
    expect(await screen.findByRole('heading', { name: 'Conversation not found' })).toBeTruthy();
    expect(await screen.findByText(/^Your message was not sent: This conversation is not available to you\. Copy it/)).toBeTruthy();
    expect((screen.getByLabelText('Your unsent message') as HTMLTextAreaElement).value).toBe('See you at 10.');
    fireEvent.click(screen.getByRole('button', { name: 'Discard draft' }));
    await waitFor(() => expect(screen.queryByLabelText('Your unsent message')).toBeNull());
    expect(await db.meta.get(messageDraftKey(ME, CONVERSATION))).toBeUndefined();
  });

  it('another member’s conversation, or none: not available', async () => {
    await member({ approved: true });
    open();
    expect(await screen.findByRole('heading', { name: 'Conversation not found' })).toBeTruthy();
  });
});

describe('the header’s Messages', () => {
  it('links to /messages and says the unread count in its description', () => {
    render(
      <MemoryRouter>
        <AppShell isAdmin={false} unreadMessages={2} onNewPostIntent={() => undefined} onLogout={() => undefined}>
          <p>Page</p>
        </AppShell>
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Messages' });
    expect(link.getAttribute('href')).toBe('/messages');
    expect(document.getElementById(link.getAttribute('aria-describedby')!)!.textContent).toBe('2 unread messages');
    // On a phone the link is in the closed menu: its toggle carries a dot and says so.
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(document.getElementById(menu.getAttribute('aria-describedby')!)!.textContent).toBe('2 unread messages');
    expect(menu.querySelector('.app-toggler-dot')).not.toBeNull();
  });

  it('no unread message: the menu’s toggle has no dot and no description', () => {
    render(
      <MemoryRouter>
        <AppShell isAdmin={false} unreadMessages={0} onNewPostIntent={() => undefined} onLogout={() => undefined}>
          <p>Page</p>
        </AppShell>
      </MemoryRouter>,
    );
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu.hasAttribute('aria-describedby')).toBe(false);
    expect(menu.querySelector('.app-toggler-dot')).toBeNull();
  });
});
