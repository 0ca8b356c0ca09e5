// Responsiveness while the device is busy (an import, a first sync): a person on /forum likes the
// first post and types words into the search box, one after another, until the work is done; the
// page's Event Timing entries give each interaction's duration (input delay + handlers + the next
// frame presented), as INP counts them. Used by bench/busy.mjs and bench/server/ui-sync.mjs.

import { percentile } from './server/harness.mjs';

const WORDS = ['survey', 'panel', 'b2b', 'quant'];
/** Event Timing leaves out interactions shorter than this: they count as this long (an upper bound). */
const THRESHOLD_MS = 16;

/** Starts recording the page's interactions (the longest entry of each interactionId, by kind). */
export async function watchInteractions(page) {
  await page.evaluate((threshold) => {
    const longest = new Map();
    window.__interactions = longest;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (!entry.interactionId) continue;
        const kind = entry.name.startsWith('key') ? 'typing' : 'like';
        const seen = longest.get(entry.interactionId);
        longest.set(entry.interactionId, { kind, duration: Math.max(seen?.duration ?? 0, entry.duration) });
      }
    }).observe({ type: 'event', durationThreshold: threshold, buffered: false });
  }, THRESHOLD_MS);
}

/**
 * Likes the first post, then types a word key by key (50 ms apart, as a quick typist) and clears
 * the box (the word selected, one Backspace), over and over until `done()`; returns how many likes and keys it performed.
 */
export async function interactUntil(page, done) {
  const performed = { like: 0, typing: 0 };
  const box = page.getByLabel('Search posts');
  for (let round = 0; !done(); round += 1) {
    // The list comes back after the box is cleared: the like waits for it.
    await page.locator('article .app-like').first().click({ timeout: 10_000 });
    performed.like += 1;
    if (done()) break;
    const word = WORDS[round % WORDS.length];
    await box.pressSequentially(word, { delay: 50 });
    await box.selectText();
    await box.press('Backspace');
    performed.typing += word.length + 1;
  }
  return performed;
}

/** p98 and the worst of all the interactions, of the likes and of the keys (the unrecorded ones at 16 ms). */
export async function interactionFigures(page, performed) {
  // The last interaction's entry arrives after its frame.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
  const recorded = await page.evaluate(() => [...window.__interactions.values()]);
  const of = (kind) => {
    const durations = recorded.filter((entry) => entry.kind === kind).map((entry) => entry.duration);
    return [...durations, ...Array.from({ length: Math.max(0, performed[kind] - durations.length) }, () => THRESHOLD_MS)];
  };
  const figures = (durations) => ({ count: durations.length, p98: percentile(durations, 98), max: Math.max(...durations) });
  return { all: figures([...of('like'), ...of('typing')]), like: figures(of('like')), typing: figures(of('typing')) };
}
