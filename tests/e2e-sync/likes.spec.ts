// Likes made on three devices at once all count, on every device and on a new one.
import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD, serverForSpec, syncPort } from './support/server';
import { PHONE, TABLET, card, newDevice, serverPosts, shownLikes, signIn, waitSynced, type Device, passwordOf } from './support/devices';

const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';
const CLICKS = 5;

const spec = serverForSpec(syncPort(1));

async function member(browser: Parameters<typeof newDevice>[0], email: string, viewport = PHONE): Promise<Device> {
  const device = await newDevice(browser, spec.server, viewport);
  await signIn(device.page, email, passwordOf(email));
  await device.page.goto('/forum');
  await expect(card(device.page, SAMPLE)).toBeVisible();
  await waitSynced(device.page);
  return device;
}

test('three devices liking one post at once: every device, the server and a new device agree', async ({ browser }) => {
  const devices = [
    await member(browser, 'ana@example.com'),
    await member(browser, 'ben@example.com', TABLET),
    await member(browser, 'cy@example.com'),
  ];
  const before = await shownLikes(devices[0]!.page, SAMPLE);
  await Promise.all(
    devices.map(async ({ page }) => {
      const like = card(page, SAMPLE).getByRole('button', { name: /^Like/ });
      for (let i = 0; i < CLICKS; i += 1) await like.click();
    }),
  );
  const expected = before + CLICKS * devices.length;
  for (const { page } of devices) {
    await expect.poll(() => shownLikes(page, SAMPLE), { timeout: 30_000 }).toBe(expected);
    await waitSynced(page);
  }
  const onServer = (await serverPosts(spec.server, ADMIN_PASSWORD)).find((post) => post.title === SAMPLE);
  expect(onServer?.likes).toBe(expected);
  const fresh = await member(browser, 'dee@example.com');
  expect(await shownLikes(fresh.page, SAMPLE)).toBe(expected);
  // Nothing counted twice after the dust settles: a reload shows the same number everywhere.
  await devices[0]!.page.reload();
  await waitSynced(devices[0]!.page);
  expect(await shownLikes(devices[0]!.page, SAMPLE)).toBe(expected);
  for (const device of [...devices, fresh]) await device.context.close();
});
