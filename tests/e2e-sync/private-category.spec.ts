// A private category across devices (issue 61, item 3): a post in a category only one group sees shows
// on a member of that group's phone with the "Private" badge naming the group, and never reaches the
// device of a member outside it (its IndexedDB and the `posts` mirror hold none of it), while a public
// post approved after it does. Set up through the API.
import { expect, test } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { PHONE, TABLET, card, mirroredPosts, sendOps, signedInDevice, storedPosts, storedRows, waitSynced } from './support/devices';

const spec = serverForSpec(syncPort(47));
const SECRET = 'Vendor pricing for the panel';
const OPEN = 'An open note on panel sizes';

test('a private category’s post shows “Private” on a member’s phone and never reaches a non-member’s device', async ({ browser }) => {
  const admin = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  const insider = await signedInDevice(browser, spec.server, 'ivy.inside@example.com', PHONE);
  const outsider = await signedInDevice(browser, spec.server, 'oscar.outside@example.com', PHONE);
  const memberId = async (device: typeof insider) =>
    device.page.evaluate(async () => ((await (await fetch('/api/session')).json()) as { user: { id: string } }).user.id);

  const groupId = crypto.randomUUID();
  const categoryId = crypto.randomUUID();
  const setUp = await sendOps(
    admin.page,
    [
      { type: 'createGroup', groupId, name: 'Vendor team' },
      { type: 'addGroupMember', groupId, memberId: await memberId(insider) },
      { type: 'createCategory', categoryId, name: 'Vendor room', position: 6, see: [groupId], post: null },
    ],
    7,
  );
  expect(setUp.results.map((result) => result.status)).toEqual(['applied', 'applied', 'applied']);
  const made = await sendOps(
    insider.page,
    [{ type: 'create', post: { title: SECRET, content: 'Rates by vendor.', category: categoryId } }],
    7,
  );
  const secretId = made.results[0]!.postId!;
  expect((await sendOps(admin.page, [{ type: 'approve', postId: secretId }], 7)).results[0]?.status).toBe('applied');
  // A public post approved after it: the outsider's device has pulled past the private one once it shows.
  const open = await sendOps(admin.page, [{ type: 'create', post: { title: OPEN, content: 'Sizes.', category: 'Trends' } }], 7);
  expect((await sendOps(admin.page, [{ type: 'approve', postId: open.results[0]!.postId! }], 7)).results[0]?.status).toBe('applied');

  // The member's phone: the card, with the badge naming the group.
  await insider.page.reload();
  await waitSynced(insider.page);
  const shown = card(insider.page, SECRET);
  await expect(shown).toBeVisible({ timeout: 30_000 });
  const badge = shown.getByText('Private', { exact: true });
  await expect(badge).toBeVisible();
  await expect(badge).toHaveAccessibleDescription('Only members of Vendor team can see this post.');

  // The outsider's phone: the public post, and nothing of the private one anywhere on the device.
  await outsider.page.reload();
  await waitSynced(outsider.page);
  await expect(card(outsider.page, OPEN)).toBeVisible({ timeout: 30_000 });
  await expect(card(outsider.page, SECRET)).toHaveCount(0);
  expect((await storedPosts(outsider.page)).map((post) => post.id)).not.toContain(secretId);
  expect(JSON.stringify(await storedPosts(outsider.page))).not.toContain(SECRET);
  expect(JSON.stringify(await mirroredPosts(outsider.page))).not.toContain(SECRET);
  expect(JSON.stringify(await storedRows(outsider.page, 'categories'))).not.toContain('Vendor room');
  expect(JSON.stringify(await storedRows(outsider.page, 'groups'))).not.toContain('Vendor team');
  for (const device of [admin, insider, outsider]) await device.context.close();
});
