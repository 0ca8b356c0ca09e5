// axe's check of a page at rest: no serious or critical violation (every a11y check uses this).
//
// axe runs in the page itself (`axe.run`, what @axe-core/playwright's legacy mode runs), injected once
// per document: AxeBuilder's analyze() evaluated axe's 580 KB source in the page at every call, ran it
// in parts (`runPartial`), then opened a blank page in the context to inject axe again and join the
// parts (`finishRun`). The app has no frames, so the one `axe.run` sees the same DOM and runs the same
// rules; only the passes and incomplete results, which no check reads, are cut to one node each.
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

// axe-core as @axe-core/playwright ships it (its own dependency, so the same version as before).
const fromAxePlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_SOURCE = (fromAxePlaywright('axe-core') as { source: string }).source;

interface AxeInPage {
  run: (
    context: Document,
    options: { resultTypes: string[] },
  ) => Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown[] }[] }[] }>;
}

/** axe's serious and critical findings on the page as it is, one line each (rule, impact, elements). */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: AxeInPage }).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.map(String).join(' ')).join(', ')}`,
      );
  });
}

export async function expectNoSeriousViolations(page: Page, label: string) {
  // Colours are judged at rest, not halfway through a fade-in, nor before one starts (a dialog and its
  // backdrop are in the page a frame before their `show` starts the fade), nor while something is
  // busy (a list kept dimmed while a new search runs: its text at 60 % would fail the contrast).
  await page.waitForFunction(
    () =>
      document.querySelector('.modal.fade:not(.show), .modal-backdrop.fade:not(.show), [aria-busy="true"]') === null &&
      document
        .getAnimations()
        .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  const summary = await seriousViolations(page);
  expect(summary, `${label}: ${summary.join('\n')}`).toEqual([]);
}
