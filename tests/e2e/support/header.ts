// The forum header in one row (issue 59, item 7): read by the responsive spec (local-only) and by the
// multi-device specs, whose admin tablet (820 px) shows the sync status too.
import { expect, type Page } from '@playwright/test';

/** The forum header's items that show share one row: their middles line up, and the bar is one row high. */
export async function expectHeaderInOneRow(page: Page): Promise<void> {
  const header = page.getByRole('banner');
  const items = [
    header.getByRole('link', { name: 'Insight Exchange' }).first(),
    header.getByRole('link', { name: 'Forum', exact: true }),
    header.getByRole('link', { name: /^Admin/ }),
    header.getByRole('link', { name: /^Messages/ }),
    header.getByRole('link', { name: 'Profile', exact: true }),
    header.getByRole('button', { name: /^Notifications/ }).locator('visible=true'),
    header.getByRole('button', { name: 'New Post' }).locator('visible=true'),
    header.getByRole('button', { name: 'Log out' }),
  ];
  const middles: number[] = [];
  for (const item of items) {
    const box = (await item.boundingBox())!;
    middles.push(box.y + box.height / 2);
  }
  expect(Math.max(...middles) - Math.min(...middles), middles.join(', ')).toBeLessThan(6);
  expect((await header.boundingBox())!.height).toBeLessThan(80);
}

/** The header's sync status shows its words whole (not cut to "S…"). */
export async function expectStatusWhole(page: Page): Promise<void> {
  const words = page.getByRole('banner').locator('.app-sync-label > span').locator('visible=true');
  const cut = await words.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(cut, 'the status is cut').toBeLessThanOrEqual(0);
}
