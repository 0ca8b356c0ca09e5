// The status at a glance on a phone (issue 23): at 390 px the header's status (here: Offline, on a
// local-only device) shows beside the menu's toggle, on the header's one row, without opening the
// menu; from md up it is among the menu's items as before. One element either way.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { MEMBER, offerInstall, openForum, putRows, storeSession } from './support/app';

const status = (page: Page) => page.getByRole('banner').getByRole('status').filter({ hasText: 'Offline' });
const box = async (locator: Locator) => (await locator.boundingBox())!;

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Offline shows in the collapsed header, on the row of the toggle, without opening the menu', async ({ page, context }) => {
    await storeSession(page, MEMBER);
    await openForum(page);
    await context.setOffline(true);
    const toggle = page.getByRole('button', { name: 'Menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(status(page)).toBeVisible();
    await expect(page.locator('.app-offline-badge')).toHaveCount(1);
    const badge = await box(status(page));
    const menu = await box(toggle);
    // Same row: their middles within a few pixels; the header kept its one row.
    expect(Math.abs(badge.y + badge.height / 2 - (menu.y + menu.height / 2))).toBeLessThan(6);
    expect((await box(page.getByRole('banner'))).height).toBeLessThan(80);
    expect(badge.x + badge.width).toBeLessThanOrEqual(menu.x);
    // New Post keeps its name (its words hidden from sight only).
    await expect(page.getByRole('button', { name: 'New Post' }).filter({ visible: true })).toHaveCount(1);
    await context.setOffline(false);
    await expect(status(page)).toHaveCount(0);
  });
});

for (const width of [390, 360]) {
  test.describe(`on a ${width} px phone, with everything showing`, () => {
    test.use({ viewport: { width, height: 844 } });

    test('Offline, Install, the bell with 99+ and New Post share the toggle’s one row (issue 40)', async ({ page, context }) => {
      await storeSession(page, MEMBER);
      await openForum(page);
      const unread = Array.from({ length: 120 }, (_, index) => ({
        id: `unread-${index}`,
        kind: 'approved',
        postId: 1,
        replyId: null,
        actor: null,
        postTitle: 'A post',
        reason: null,
        createdAt: Date.now() - index,
        readAt: null,
        email: MEMBER,
        unread: 1,
      }));
      await putRows(page, 'notifications', unread);
      await page.reload();
      const bell = page.getByRole('button', { name: 'Notifications', exact: true }).filter({ visible: true });
      await expect(bell).toContainText('99+');
      await context.setOffline(true);
      await offerInstall(page);
      const install = page.getByRole('banner').getByRole('button', { name: 'Install' });
      await expect(install).toBeVisible();
      await expect(status(page)).toBeVisible();
      const toggle = await box(page.getByRole('button', { name: 'Menu' }));
      const middle = toggle.y + toggle.height / 2;
      for (const item of [status(page), install, bell, page.getByRole('button', { name: 'New Post' }).filter({ visible: true })]) {
        const itemBox = await box(item);
        expect(Math.abs(itemBox.y + itemBox.height / 2 - middle)).toBeLessThan(6);
        expect(itemBox.x + itemBox.width).toBeLessThanOrEqual(toggle.x);
      }
      expect((await box(page.getByRole('banner'))).height).toBeLessThan(80);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    });
  });
}

test.describe('on a desktop (1280 px)', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('Offline stays between the links and New Post', async ({ page, context }) => {
    await storeSession(page, MEMBER);
    await openForum(page);
    await context.setOffline(true);
    await expect(status(page)).toBeVisible();
    await expect(page.locator('.app-offline-badge')).toHaveCount(1);
    const badge = await box(status(page));
    const profile = await box(page.getByRole('banner').getByRole('link', { name: 'Profile' }));
    const newPost = await box(page.getByRole('button', { name: 'New Post' }).filter({ visible: true }));
    expect(badge.x).toBeGreaterThan(profile.x + profile.width);
    expect(badge.x + badge.width).toBeLessThan(newPost.x);
    expect(Math.abs(badge.y + badge.height / 2 - (newPost.y + newPost.height / 2))).toBeLessThan(6);
  });
});
