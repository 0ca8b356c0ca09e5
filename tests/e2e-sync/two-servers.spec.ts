// Two server instances on one PostgreSQL share posts and live likes: a device on each instance
// sees what the other one did without a reload (PostgreSQL LISTEN/NOTIFY carries the signal).
import { expect, test } from '@playwright/test';
import { startPostgres } from '../../scripts/postgres.mjs';
import { ADMIN_PASSWORD, removeData, startServer, type RunningServer, syncPort } from './support/server';
import { TABLET, card, newDevice, shownLikes, signIn, submitNewPost, waitSynced, passwordOf } from './support/devices';

const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';

let postgres: Awaited<ReturnType<typeof startPostgres>>;
const servers: RunningServer[] = [];
test.beforeAll(async () => {
  test.setTimeout(180_000);
  postgres = await startPostgres();
  servers.push(await startServer({ port: syncPort(6), env: { DATABASE_URL: postgres.url } }));
  servers.push(await startServer({ port: syncPort(7), env: { DATABASE_URL: postgres.url } }));
});
test.afterAll(async () => {
  for (const server of servers) {
    await server.stop();
    removeData(server);
  }
  postgres?.stop();
});

test('two servers on one PostgreSQL share posts and live likes', async ({ browser }) => {
  const [first, second] = servers as [RunningServer, RunningServer];
  const phone = await newDevice(browser, first);
  const tablet = await newDevice(browser, second, TABLET);
  await signIn(phone.page, 'omar@example.com', passwordOf('omar@example.com'));
  await signIn(tablet.page, 'admin@insightexchange.app', ADMIN_PASSWORD);
  await phone.page.goto('/forum');
  await tablet.page.goto('/forum');
  await waitSynced(phone.page);
  await waitSynced(tablet.page);

  // A like on one instance is painted on a device of the other, live.
  const before = await shownLikes(tablet.page, SAMPLE);
  await card(phone.page, SAMPLE).getByRole('button', { name: /^Like/ }).click();
  await expect.poll(() => shownLikes(tablet.page, SAMPLE), { timeout: 30_000 }).toBe(before + 1);

  // A post through one instance reaches the admin's queue on the other, and the approval comes back.
  await tablet.page.goto('/admin');
  await waitSynced(tablet.page);
  await submitNewPost(phone.page, 'Shared across instances', 'Written through the first server.');
  const queued = card(tablet.page, 'Shared across instances');
  await expect(queued).toBeVisible({ timeout: 30_000 });
  await queued.getByRole('button', { name: 'Approve' }).click();
  await expect(card(phone.page, 'Shared across instances')).toBeVisible({ timeout: 30_000 });
  await phone.context.close();
  await tablet.context.close();
});
