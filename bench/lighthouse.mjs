// Lighthouse as the benchmarks run it (bench/run.mjs for `/` and `/forum`, bench/lighthouse-home.mjs
// for `/` alone): Lighthouse 12.8's defaults, mobile with simulated throttling, on a Chromium that
// listens on a remote-debugging port.

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** The audits behind the performance score and the opportunities worth reading, kept from each run. */
export const KEY_AUDITS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
  'interactive',
  'max-potential-fid',
  'largest-contentful-paint-element',
  'render-blocking-resources',
  'render-blocking-insight',
  'unused-css-rules',
  'unused-javascript',
  'bootup-time',
  'mainthread-work-breakdown',
  'long-tasks',
  'total-byte-weight',
  'network-requests',
  'metrics',
];

/** One Lighthouse run of `url` on the Chromium at `port`; `storageReset: false` keeps its service worker and storage. */
export async function lighthouseRun(url, port, { storageReset = true } = {}) {
  const { default: lighthouse } = await import('lighthouse');
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: CATEGORIES,
    disableStorageReset: !storageReset,
  });
  return result.lhr;
}

/** The four scores of one run, out of 100. */
export const scoresOf = (lhr) =>
  Object.fromEntries(CATEGORIES.map((category) => [category, Math.round(lhr.categories[category].score * 100)]));

/** What costs points: every weighted audit below a full score, one line per category that lost any. */
export function lostPoints(lhr) {
  const lines = [];
  for (const category of CATEGORIES) {
    const lost = lhr.categories[category].auditRefs
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => {
        const audit = lhr.audits[ref.id];
        const first = audit.details?.items?.[0];
        return `${ref.id} (${audit.displayValue ?? audit.score}${first ? `: ${JSON.stringify(first).slice(0, 300)}` : ''})`;
      });
    if (lost.length > 0) lines.push(`${category}: ${lost.join(', ')}`);
  }
  return lines;
}

/** The key audits of one run, trimmed for a results file: score, value, and the details' items (at most 15). */
export function keyAudits(lhr) {
  return Object.fromEntries(
    KEY_AUDITS.filter((id) => lhr.audits[id]).map((id) => {
      const { score, numericValue, displayValue, details } = lhr.audits[id];
      const items = Array.isArray(details?.items) ? details.items.slice(0, 15) : undefined;
      return [id, { score, numericValue, displayValue, items }];
    }),
  );
}
