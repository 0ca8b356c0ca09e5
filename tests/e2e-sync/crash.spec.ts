// The server killed (SIGKILL) and restarted loses nothing it acknowledged; the device notices the
// outage, keeps its changes, and catches up by itself when the server is back.
import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD, serverForSpec, syncPort } from './support/server';
import { card, newDevice, serverPosts, shownLikes, signIn, submitNewPost, syncStatus, waitSynced, passwordOf } from './support/devices';

const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';

const spec = serverForSpec(syncPort(5));

test('the server killed and restarted loses nothing acknowledged', async ({ browser }) => {
  const { context, page } = await newDevice(browser, spec.server);
  await signIn(page, 'steady@example.com', passwordOf('steady@example.com'));
  await page.goto('/forum');
  await waitSynced(page);
  const before = await shownLikes(page, SAMPLE);
  const like = card(page, SAMPLE).getByRole('button', { name: /^Like/ });
  for (let i = 0; i < 4; i += 1) await like.click();
  await submitNewPost(page, 'Acknowledged before the crash', 'It must survive a SIGKILL.');
  await waitSynced(page); // every change acknowledged

  await spec.server.stop('SIGKILL');
  await like.click(); // made while the server is gone: waits on the device
  await expect(syncStatus(page)).toHaveAccessibleName(/Sync status: (Offline|Sync error)/, { timeout: 30_000 });

  spec.server = await spec.server.restart();
  await waitSynced(page, 60_000);
  const posts = await serverPosts(spec.server, ADMIN_PASSWORD);
  expect(posts.find((post) => post.title === SAMPLE)?.likes).toBe(before + 5);
  expect(posts.filter((post) => post.title === 'Acknowledged before the crash')).toHaveLength(1);
  expect(await shownLikes(page, SAMPLE)).toBe(before + 5);
  await context.close();
});
