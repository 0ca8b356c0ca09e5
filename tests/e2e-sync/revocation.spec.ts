// Losing access across devices (issue 61, item 4): what a member may no longer see leaves their
// device, live when it is online, on its next connection otherwise (the forum lists none of it,
// IndexedDB and the `posts` copy hold none); a reply they wrote offline in a conversation that became
// private to others is kept as a draft they can copy, with the sentence that says why. Groups,
// categories and posts are set up through the API (the admin's tablet); what the phone shows is tested.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import {
  PHONE,
  TABLET,
  card,
  mirroredPosts,
  sendOps,
  signedInDevice,
  storedPosts,
  storedRows,
  waitSynced,
  type Device,
} from './support/devices';

const spec = serverForSpec(syncPort(45));
const SENTENCE = 'This conversation is no longer available to you. Your reply is kept here so you can copy it.';

/** Operations of protocol 7 (groups and categories), each applied. */
async function apply(page: Page, ops: Record<string, unknown>[]): Promise<number | undefined> {
  const answer = await sendOps(page, ops, 7);
  expect(answer.results.map((result) => [result.status, result.code])).toEqual(ops.map(() => ['applied', undefined]));
  return answer.results.find((result) => result.postId !== undefined)?.postId;
}

/** The member's public id, as their device remembers it from signing in. */
async function memberIdOf(device: Device, email: string): Promise<string> {
  const rows = await storedRows<{ key: string; value: unknown }>(device.page, 'meta');
  return String(rows.find((row) => row.key === `member-id:${email}`)?.value);
}

/** A group with `memberId` in it, a category only it sees (or everyone: `open`), and an approved post there; returns ids. */
async function privateRoom(admin: Device, memberId: string, title: string, open = false) {
  const groupId = randomUUID();
  const categoryId = randomUUID();
  await apply(admin.page, [
    { type: 'createGroup', groupId, name: `Group ${title.slice(0, 20)}` },
    { type: 'addGroupMember', groupId, memberId },
    { type: 'createCategory', categoryId, position: 9, name: `Room ${title.slice(0, 20)}`, see: open ? null : [groupId], post: null },
  ]);
  const postId = (await apply(admin.page, [{ type: 'create', post: { title, content: 'Only for the group.', category: categoryId } }]))!;
  await apply(admin.page, [{ type: 'approve', postId }]);
  return { groupId, categoryId, postId };
}

const titles = (posts: { title: string }[]) => posts.map((post) => post.title);

test('a member taken out of a group loses its private posts on their phone live', async ({ browser }) => {
  const tablet = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  const phone = await signedInDevice(browser, spec.server, 'jane.doe@example.com', PHONE);
  const memberId = await memberIdOf(phone, 'jane.doe@example.com');
  const title = 'Vendor prices for the panel';
  const { groupId } = await privateRoom(tablet, memberId, title);
  await expect(card(phone.page, title)).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => titles(await mirroredPosts(phone.page)), { timeout: 30_000 }).toContain(title);

  await apply(tablet.page, [{ type: 'removeGroupMember', groupId, memberId }]);
  // The phone stayed on the forum: the live stream told it to pull.
  await expect(card(phone.page, title)).toHaveCount(0, { timeout: 30_000 });
  expect(titles(await storedPosts(phone.page))).not.toContain(title);
  await expect.poll(async () => titles(await mirroredPosts(phone.page))).not.toContain(title);
  await phone.context.close();
  await tablet.context.close();
});

test('an offline phone loses them when it reconnects', async ({ browser }) => {
  const tablet = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  const phone = await signedInDevice(browser, spec.server, 'sam.stone@example.com', PHONE);
  const memberId = await memberIdOf(phone, 'sam.stone@example.com');
  const title = 'Budget figures for next quarter';
  const { groupId } = await privateRoom(tablet, memberId, title);
  await expect(card(phone.page, title)).toBeVisible({ timeout: 30_000 });

  await phone.context.setOffline(true);
  await apply(tablet.page, [{ type: 'removeGroupMember', groupId, memberId }]);
  // Offline, the phone still holds it (nothing reached it).
  await expect(card(phone.page, title)).toBeVisible();
  expect(titles(await storedPosts(phone.page))).toContain(title);

  await phone.context.setOffline(false);
  await expect(card(phone.page, title)).toHaveCount(0, { timeout: 30_000 });
  await waitSynced(phone.page);
  expect(titles(await storedPosts(phone.page))).not.toContain(title);
  await phone.page.reload();
  await waitSynced(phone.page);
  await expect(card(phone.page, title)).toHaveCount(0);
  await phone.context.close();
  await tablet.context.close();
});

test('a reply written offline in a category that became private is kept as a draft to copy', async ({ browser }) => {
  const tablet = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  const phone = await signedInDevice(browser, spec.server, 'kim.kerr@example.com', PHONE);
  const adminId = await memberIdOf(tablet, 'admin@insightexchange.app');
  const title = 'Field notes from the workshop';
  // Everyone sees the category at first; its group holds the admin alone.
  const { groupId, categoryId, postId } = await privateRoom(tablet, adminId, title, true);
  await expect(card(phone.page, title)).toBeVisible({ timeout: 30_000 });
  await card(phone.page, title).getByRole('link', { name: title }).click();
  await expect(phone.page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  await phone.context.setOffline(true);
  const text = 'My notes on the second session, written on the train.';
  await phone.page.getByLabel('Your reply').fill(text);
  await phone.page.getByRole('button', { name: 'Post Reply' }).click();
  await expect(phone.page.getByRole('list', { name: 'Replies' }).getByRole('listitem').filter({ hasText: text })).toBeVisible();
  // Meanwhile the category becomes private to a group the phone's member is not in.
  await apply(tablet.page, [{ type: 'editCategory', categoryId, name: `Room ${title.slice(0, 20)}`, see: [groupId], post: null }]);

  await phone.context.setOffline(false);
  await expect.poll(async () => (await storedPosts(phone.page)).some((post) => post.id === postId), { timeout: 30_000 }).toBe(false);
  // The page it was written on says so where it was written (a new member saw their text vanish there).
  await expect(phone.page.getByRole('heading', { level: 1, name: 'Post not available' })).toBeVisible({ timeout: 30_000 });
  await expect(phone.page.getByRole('region', { name: 'Kept drafts' }).getByLabel('Your reply')).toHaveValue(text);
  await phone.page.goto('/forum');
  const kept = phone.page.getByRole('region', { name: 'Kept drafts' });
  await expect(kept).toContainText(SENTENCE);
  await expect(kept.getByLabel('Your reply')).toHaveValue(text);
  await expect(kept.getByRole('button', { name: 'Copy' })).toBeVisible();
  await expect(card(phone.page, title)).toHaveCount(0);
  // Nothing is left to send, and the server never took it.
  await waitSynced(phone.page);
  expect(await storedRows(phone.page, 'outbox')).toEqual([]);
  await phone.context.close();
  await tablet.context.close();
});
