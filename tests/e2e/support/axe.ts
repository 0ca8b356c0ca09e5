import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe finds nothing serious or critical on the page as it is now (once its animations have settled). */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  // Colours are judged at rest, not halfway through a fade-in.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const summary = serious.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
  expect(summary, `${label}: ${summary.join('\n')}`).toEqual([]);
}
