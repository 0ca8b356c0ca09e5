// A device stores only what the server lets it see: another member's pending post never reaches
// it (IndexedDB or the `posts` mirror), and when another member signs in on a device, the
// previous member's private posts leave both.
import { expect, test } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { TABLET, mirroredPosts, newDevice, signIn, storedPosts, submitNewPost, waitSynced, passwordOf } from './support/devices';

const SECRET = 'Draft: pricing study for a client still under NDA';

const spec = serverForSpec(syncPort(3));

const titles = (posts: { title: string }[]) => posts.map((post) => post.title);

test('another member’s device never receives a pending post; a member switch removes it', async ({ browser }) => {
  const author = await newDevice(browser, spec.server, TABLET);
  await signIn(author.page, 'author@example.com', passwordOf('author@example.com'));
  await author.page.goto('/forum');
  await submitNewPost(author.page, SECRET, 'Nobody else may read this before review.');
  await waitSynced(author.page);

  const other = await newDevice(browser, spec.server);
  await signIn(other.page, 'other@example.com', passwordOf('other@example.com'));
  await other.page.goto('/forum');
  await waitSynced(other.page);
  // The mirror is written shortly after the pull: wait for it to hold the forum, then look.
  await expect.poll(async () => (await mirroredPosts(other.page)).length, { timeout: 30_000 }).toBe(3);
  expect(titles(await storedPosts(other.page))).not.toContain(SECRET);
  expect(titles(await mirroredPosts(other.page))).not.toContain(SECRET);

  // The author's own device holds it, in both places.
  await expect.poll(async () => titles(await mirroredPosts(author.page)), { timeout: 30_000 }).toContain(SECRET);
  expect(titles(await storedPosts(author.page))).toContain(SECRET);

  // Another member signs in on the author's device: the private post leaves IndexedDB and the mirror.
  await author.page.getByRole('button', { name: 'Log out' }).first().click();
  await signIn(author.page, 'other@example.com', passwordOf('other@example.com'));
  await author.page.goto('/forum');
  await waitSynced(author.page);
  await expect.poll(async () => titles(await storedPosts(author.page))).not.toContain(SECRET);
  await expect.poll(async () => titles(await mirroredPosts(author.page)), { timeout: 30_000 }).not.toContain(SECRET);
  expect(await storedPosts(author.page)).toHaveLength(3);
  await author.context.close();
  await other.context.close();
});
