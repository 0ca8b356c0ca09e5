// Messages across devices (issue 61, item 5): a member writes to another from /messages (To offers
// them by name), with a file; the message and its file arrive live on the recipient's device, and
// never reach a third member's device's IndexedDB nor download.
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { PHONE, TABLET, sendOps, signedInDevice, storedRows, waitSynced } from './support/devices';
import { LIMITS } from '../../src/shared/post-rules';

const spec = serverForSpec(syncPort(29));

test('a message between two members, with a file, arrives live on the recipient’s device and never on a third’s', async ({ browser }) => {
  const admin = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  const bob = await signedInDevice(browser, spec.server, 'bob.brook@example.com', TABLET, '/messages');
  const carol = await signedInDevice(browser, spec.server, 'carol.cole@example.com', PHONE, '/messages');
  const alice = await signedInDevice(browser, spec.server, 'alice.ames@example.com', PHONE);
  // Alice's post approved opens messages to her; Bob's reply puts him among the members offered by name.
  const made = await sendOps(alice.page, [{ type: 'create', post: { title: 'Quota sampling', content: 'Notes.', category: 'Trends' } }]);
  const id = made.results[0]!.postId!;
  expect((await sendOps(admin.page, [{ type: 'approve', postId: id }])).results[0]?.status).toBe('applied');
  expect((await sendOps(bob.page, [{ type: 'reply', postId: id, content: 'Agreed.' }])).results[0]?.status).toBe('applied');
  expect((await sendOps(carol.page, [{ type: 'reply', postId: id, content: 'Me too.' }])).results[0]?.status).toBe('applied');

  await alice.page.goto(`${spec.server.url}/messages`);
  await alice.page.getByRole('button', { name: 'New message' }).click();
  const dialog = alice.page.getByRole('dialog', { name: 'New message' });
  // From the keyboard: Escape closes the list (not the dialog), Enter chooses the option (sends nothing).
  const to = dialog.getByRole('combobox', { name: 'To' });
  await to.fill('Bob');
  await expect(dialog.getByRole('option', { name: 'Bob Brook' })).toHaveAttribute('aria-selected', 'true');
  await to.press('Escape');
  await expect(to).toHaveAttribute('aria-expanded', 'false');
  await expect(dialog).toBeVisible();
  await to.press('Backspace');
  await expect(dialog.getByRole('option', { name: 'Bob Brook' })).toBeVisible();
  await to.press('Enter');
  await expect(dialog.getByRole('list', { name: 'Recipients' })).toContainText('Bob Brook');
  await expect(to).toBeFocused();
  // Enter sent nothing: a send without a subject would have marked Subject.
  await expect(dialog.getByLabel('Subject')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Subject')).not.toHaveClass(/is-invalid/);
  await dialog.getByLabel('Subject').fill('Panel quotes');
  await dialog.getByLabel('Message').fill('The quota file is ready.');
  const quotas = Buffer.from('cell,quota\nA,40\n', 'utf8');
  const sha256 = createHash('sha256').update(quotas).digest('hex');
  await dialog.getByLabel('Files to attach').setInputFiles({ name: 'quotas.csv', mimeType: 'text/csv', buffer: quotas });
  await expect(dialog.getByText('quotas.csv')).toBeVisible();
  await dialog.getByRole('button', { name: 'Send message' }).click();
  await expect(alice.page.getByRole('heading', { name: 'Panel quotes' })).toBeVisible();
  await waitSynced(alice.page);

  // Live on Bob's open /messages: the conversation, and its message once opened.
  const conversation = bob.page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: 'Panel quotes' });
  await expect(conversation).toBeVisible({ timeout: 30_000 });
  await expect(bob.page.getByRole('link', { name: 'Messages' }).first()).toHaveAccessibleDescription('1 unread message');
  await conversation.click();
  await expect(bob.page.getByText('The quota file is ready.')).toBeVisible();
  await expect(bob.page.getByRole('region', { name: 'Attachments' })).toContainText('quotas.csv');
  expect((await bob.page.request.get(`${spec.server.url}/api/attachments/${sha256}`)).status()).toBe(200);

  // Carol's device synced past it and holds none of it.
  await carol.page.reload();
  await waitSynced(carol.page);
  await expect(carol.page.getByText('No messages yet.')).toBeVisible();
  expect(await storedRows(carol.page, 'conversations')).toEqual([]);
  expect(await storedRows(carol.page, 'messages')).toEqual([]);
  expect(await storedRows(carol.page, 'files')).toEqual([]);
  expect((await carol.page.request.get(`${spec.server.url}/api/attachments/${sha256}`)).status()).toBe(404);
  for (const device of [admin, bob, carol, alice]) await device.context.close();
});

test('on a phone, a 100-letter name without a space wraps in the New message dialog and the conversation: nothing runs past the screen', async ({
  browser,
}) => {
  const long = 'A'.repeat(LIMITS.name);
  const dave = await signedInDevice(browser, spec.server, 'dave.dunn@example.com', PHONE);
  const erin = await signedInDevice(browser, spec.server, 'erin.east@example.com', PHONE);
  expect((await sendOps(dave.page, [{ type: 'rename', name: long }], 8)).results[0]?.status).toBe('applied');
  // Dave's reply puts him among the members offered by name.
  const made = await sendOps(erin.page, [{ type: 'create', post: { title: 'Panel attrition', content: 'Notes.', category: 'Trends' } }]);
  const admin = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', PHONE);
  expect((await sendOps(admin.page, [{ type: 'approve', postId: made.results[0]!.postId! }])).results[0]?.status).toBe('applied');
  expect((await sendOps(dave.page, [{ type: 'reply', postId: made.results[0]!.postId!, content: 'Agreed.' }])).results[0]?.status).toBe(
    'applied',
  );

  const { page } = erin;
  await page.goto(`${spec.server.url}/messages`);
  await page.getByRole('button', { name: 'New message' }).click();
  const dialog = page.getByRole('dialog', { name: 'New message' });
  await dialog.getByRole('combobox', { name: 'To' }).fill('AAAA');
  await dialog.getByRole('option', { name: long }).click();
  const chip = dialog.getByRole('list', { name: 'Recipients' }).getByRole('listitem');
  const inside = async (inner: ReturnType<typeof page.locator>) => {
    const [box, frame] = [await inner.boundingBox(), await dialog.locator('.modal-content').boundingBox()];
    return box !== null && frame !== null && box.x >= frame.x && box.x + box.width <= frame.x + frame.width;
  };
  expect(await inside(chip)).toBe(true);
  expect(await inside(dialog.getByRole('button', { name: `Remove ${long}` }))).toBe(true);
  await dialog.getByLabel('Subject').fill('Attrition');
  await dialog.getByLabel('Message').fill('Which waves lose the most?');
  await dialog.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('heading', { name: 'Attrition' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Participants' })).toContainText(long);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // Dave's side: Erin's name in his conversation list, and his own on his answer.
  await dave.page.goto(`${spec.server.url}/messages`);
  const listed = dave.page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: 'Attrition' });
  await expect(listed).toBeVisible({ timeout: 30_000 });
  expect(await dave.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await listed.click();
  await expect(dave.page.getByText('Which waves lose the most?')).toBeVisible();
  await dave.page.getByLabel('Your reply').fill('Waves 4 to 6.');
  await dave.page.getByRole('button', { name: 'Send' }).click();
  await expect(dave.page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Waves 4 to 6.' })).toContainText(
    long,
  );
  expect(await dave.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // The admin's panels: a 100-letter group with Dave in it, and Dave among the members.
  const group = crypto.randomUUID();
  const made2 = await sendOps(
    admin.page,
    [{ type: 'createGroup', groupId: group, name: 'G'.repeat(100), description: 'D'.repeat(500) }],
    8,
  );
  expect(made2.results[0]?.status).toBe('applied');
  await admin.page.goto(`${spec.server.url}/admin`);
  for (const [tab, shown] of [
    ['Groups', 'G'.repeat(100)],
    ['Members', long],
  ] as const) {
    await admin.page.getByRole('tab', { name: tab }).click();
    await expect(admin.page.getByRole('tabpanel', { name: tab }).getByText(shown, { exact: true }).first()).toBeVisible();
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth), tab).toBeLessThanOrEqual(PHONE.width);
  }
  for (const device of [dave, erin, admin]) await device.context.close();
});
