// What the outside probe (outside-probe.mjs) and the reopen's trace (reopen-trace.mjs) share: the
// older build's `posts` copy, the static build served by vite preview, the first article's frame
// watched in every document, and a page's start-up work waited out.
import { spawn } from 'node:child_process';

/** The older build's `posts` array: `count` approved posts, newest last (10,000: about 4.3 MB of JSON). */
export function olderBuildPosts(count) {
  return Array.from({ length: count }, (_, i) => ({
    id: 1_600_000_000_000 + i * 1_000,
    title: `Probe post ${i} k${i}`,
    content: `Written by the older build, row ${i}, about sampling and fieldwork. `.repeat(2),
    category: 'Quantitative',
    author: 'Older Build Author',
    authorEmail: 'older@example.com',
    authorRole: 'user',
    likes: i % 7,
    comments: 0,
    views: i % 13,
    date: '3 days ago',
    isTopContributor: false,
    tags: ['probe'],
    status: 'approved',
  }));
}

/** vite preview of the build in `dir` on 127.0.0.1:`port`; resolves with the child once it answers. */
export async function serveBuild(dir, port) {
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', dir],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  for (let i = 0; i < 300; i += 1) {
    const up = await fetch(`${base}/robots.txt`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return child;
    if (child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`vite preview did not answer on ${base}.`);
}

/**
 * An init script for every document of the context, from its first script: `window.__probe` gets
 * the moment (performance.now) the first `article` with a heading appeared (`inserted`), the frame
 * after it (`article`), and whether the snapshot (src/boot/forum-snapshot.ts) or the app painted it.
 */
export function watchFirstArticle() {
  const seen = { article: 0 };
  window.__probe = seen;
  const check = () => {
    if (seen.article !== 0 || !document.querySelector('article :is(h1, h2, h3, h4)')) return;
    seen.article = -1;
    seen.via = document.querySelector('#forum-snapshot article') ? 'snapshot' : 'app';
    seen.inserted = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => (seen.article = performance.now()));
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true });
}

/** Resolves once the page has had two idle periods of 40 ms or more in a row (its start-up work done). */
export const pageSettled = (page) =>
  page.evaluate(
    () =>
      new Promise((done) => {
        let calm = 0;
        const next = () =>
          requestIdleCallback((deadline) => {
            calm = deadline.timeRemaining() >= 40 ? calm + 1 : 0;
            if (calm >= 2) done();
            else setTimeout(next, 50);
          });
        next();
      }),
  );
