// The live stream dropped: the server is killed (SIGKILL) under two listening devices, a like is
// made on device A while B's stream is down, and the server comes back on the same data. B's
// EventSource reconnects by itself and B shows the like without a reload or any action.
import { expect, test } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { TABLET, card, newDevice, shownLikes, signIn, waitSynced, passwordOf } from './support/devices';

const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';

const spec = serverForSpec(syncPort(12));

test('a device whose live stream was cut reconnects and catches up on a like made meanwhile', async ({ browser }) => {
  const a = await newDevice(browser, spec.server);
  const b = await newDevice(browser, spec.server, TABLET);
  for (const [device, email] of [
    [a, 'stream.a@example.com'],
    [b, 'stream.b@example.com'],
  ] as const) {
    await signIn(device.page, email, passwordOf(email));
    await device.page.goto('/forum');
    await expect(card(device.page, SAMPLE)).toBeVisible();
    await waitSynced(device.page);
  }
  const before = await shownLikes(b.page, SAMPLE);
  let streamsOpened = 0;
  b.page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/events') streamsOpened += 1;
  });
  // A mark that a reload or navigation would wipe.
  await b.page.evaluate(() => Object.assign(window, { noReloadMark: true }));

  await spec.server.stop('SIGKILL');
  await card(a.page, SAMPLE).getByRole('button', { name: /^Like/ }).click(); // queued on A: nobody can hear it yet
  await expect.poll(() => shownLikes(a.page, SAMPLE)).toBe(before + 1);
  expect(await shownLikes(b.page, SAMPLE)).toBe(before);

  spec.server = await spec.server.restart();
  await expect.poll(() => shownLikes(b.page, SAMPLE), { timeout: 60_000 }).toBe(before + 1);
  // B opens a new stream by itself. B may have pulled the like before that request (a catch-up
  // pull does not wait for the browser's reconnection), so it is waited for, not read at once.
  await expect.poll(() => streamsOpened, { timeout: 60_000 }).toBeGreaterThan(0);
  expect(await b.page.evaluate(() => (window as unknown as { noReloadMark?: boolean }).noReloadMark)).toBe(true);
  await waitSynced(a.page, 60_000);
  await waitSynced(b.page);
  await a.context.close();
  await b.context.close();
});
