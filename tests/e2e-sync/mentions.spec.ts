// Mentions across devices (issue 42): `@` in the reply box offers a member the writer's device has
// never seen (the server's answer), Enter writes the mention, and the member named is notified on
// their own device; the mention is a link to their page.
import { expect, test } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { PHONE, TABLET, sendOps, signedInDevice, waitSynced } from './support/devices';

const spec = serverForSpec(syncPort(32));

test('a mention: offered as @ is typed, written by Enter, and it notifies the member named', async ({ browser }) => {
  const named = await signedInDevice(browser, spec.server, 'nora.named@example.com', TABLET, '/notifications');
  const admin = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  const made = await sendOps(admin.page, [
    { type: 'create', post: { title: 'Who ran the diary study?', content: 'Asking around.', category: 'Qualitative' } },
  ]);
  const id = made.results[0]!.postId!;
  expect((await sendOps(admin.page, [{ type: 'approve', postId: id }])).results[0]?.status).toBe('applied');
  // Nora has written on the forum (a member who has not is not offered, as their page is not shown).
  expect((await sendOps(named.page, [{ type: 'reply', postId: id, content: 'I ran one in 2024.' }])).results[0]?.status).toBe('applied');

  const writer = await signedInDevice(browser, spec.server, 'wren.writer@example.com', PHONE, `/posts/${id}`);
  const box = writer.page.getByLabel('Your reply');
  await box.fill('Ask @nor');
  const offered = writer.page.getByRole('listbox', { name: 'Mention a member' });
  await expect(offered.getByRole('option', { name: 'Nora Named' })).toBeVisible();
  await box.press('Enter');
  await expect(box).toHaveValue(/^Ask \[@Nora Named\]\(\/members\/[0-9a-f]{16}\) $/);
  await box.pressSequentially('about it.');
  await writer.page.getByRole('button', { name: 'Post Reply' }).click();
  const mention = writer.page.getByRole('list', { name: 'Replies' }).getByRole('link', { name: '@Nora Named' });
  await expect(mention).toBeVisible();
  await waitSynced(writer.page);

  await expect(named.page.getByRole('link', { name: /Wren Writer mentioned you in “Who ran the diary study\?”/ })).toBeVisible({
    timeout: 30_000,
  });
  await mention.click();
  await expect(writer.page).toHaveURL(/\/members\/[0-9a-f]{16}$/);
  await expect(writer.page.getByRole('heading', { name: 'Nora Named', level: 1 })).toBeVisible();
  for (const device of [named, admin, writer]) await device.context.close();
});
