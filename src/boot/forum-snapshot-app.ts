// The app's side of the first-paint snapshots (the forum's first page, a post's page): takes one
// from the live page once the browser is idle, and hands over from the snapshot (painted by
// forum-snapshot.ts before the app booted) to the live page in the same frame, so nothing moves.
// Storing them is src/db/storage/forum-snapshot.ts.

import { useEffect, useLayoutEffect, useState } from 'react';
import { idleThrottle } from '../db/storage/idle';
import { dropSnapshot, saveSnapshot, snapshotGeneration } from '../db/storage/forum-snapshot';
import { readStoredSession } from '../db/members/session';
import { changeListeners, changes, livePages, releaseSnapshot, seenChanges, startupCheck } from './forum-snapshot-release';
// The first load's part, named here too (tests and callers may take either).
export { dropSnapshotOfOthers, keepForumSnapshotFresh, releaseSnapshot, snapshotPath } from './forum-snapshot-release';
import { snapshotUrlFor } from '../db/contracts';
import { endFirstFrame } from '../db/storage/first-frame';
import { SNAPSHOT_STYLE_ATTRIBUTE, SNAPSHOT_VIEW_ID } from './forum-snapshot-names';

/** The shortest time between two takings of a page's snapshot while its changes keep coming. */
export const SNAPSHOT_GAP_MS = 1_000;

/** How many posts the painted snapshot shows (0 when none is on screen). */
export function snapshotPostCount(): number {
  return typeof document === 'undefined' ? 0 : document.querySelectorAll(`#${SNAPSHOT_VIEW_ID} article`).length;
}

/** The most posts the snapshot keeps: the first page. */
const SNAPSHOT_POSTS = 20;

/**
 * How many of the page's items (`items`: the forum's posts, a post page's replies) the snapshot
 * keeps: those that start within the first screen (at least `least`, at most SNAPSHOT_POSTS). Every
 * one more is style, layout and paint before the first frame (measured: the first screen's posts
 * alone halve it on a phone).
 */
function itemsOnFirstScreen(root: HTMLElement, items: string, least: number): number {
  const elements = Array.from(root.querySelectorAll(items)).slice(0, SNAPSHOT_POSTS);
  const fold = window.innerHeight;
  const visible = elements.filter((element) => element.getBoundingClientRect().top + window.scrollY < fold).length;
  return Math.max(least, visible);
}

/** The first screen of #root as HTML: the items (`items`) that start on it, nothing focused or typed. */
export function snapshotHtml(root: HTMLElement, items = 'article', least = 1): string {
  const keep = itemsOnFirstScreen(root, items, least);
  const copy = root.cloneNode(true) as HTMLElement;
  copy.querySelectorAll(items).forEach((item, index) => {
    if (index >= keep) item.remove();
  });
  copy.querySelectorAll('[role="status"], [aria-live], .toast, [data-not-in-snapshot]').forEach((element) => element.remove());
  // Nothing typed (a draft kept on this device is the form's, not the page's): empty fields.
  copy.querySelectorAll('textarea').forEach((field) => (field.textContent = ''));
  copy.querySelectorAll('input:not([type="checkbox"], [type="radio"], [type="hidden"])').forEach((field) => field.removeAttribute('value'));
  // The CSP blocks style attributes in parsed markup: forum-snapshot.ts applies these.
  copy.querySelectorAll<HTMLElement>('[style]').forEach((element) => {
    element.setAttribute(SNAPSHOT_STYLE_ATTRIBUTE, element.getAttribute('style') ?? '');
    element.removeAttribute('style');
  });
  return copy.innerHTML;
}

/** What a page's snapshot keeps of it: the items trimmed to the first screen, and at least how many of them. */
export interface SnapshotItems {
  selector: string;
  least: number;
}

const FORUM_ITEMS: SnapshotItems = { selector: 'article', least: 1 };

/**
 * Once a snapshot page's live content is shown (`shown`): removes the snapshot in the same frame;
 * when the address has a snapshot of its own (snapshotUrlFor: /forum or a post's page, nothing
 * after the path) and `saveable` (the forum: no search, every category), stores a fresh one
 * whenever `rows` change, whether a local write or a sync pull changed them (Dexie's live queries
 * follow both).
 */
export function useSnapshotPage(shown: boolean, saveable: boolean, rows: unknown, items: SnapshotItems = FORUM_ITEMS): void {
  const url = typeof location === 'undefined' ? null : snapshotUrlFor(location.pathname, location.search, location.hash);
  const live = shown && saveable && url !== null;
  useLayoutEffect(() => {
    if (!shown) return;
    releaseSnapshot();
    // A new browser's first frame (first-frame.ts) gives way in the same frame too.
    endFirstFrame();
  }, [shown]);
  useEffect(() => {
    if (!live || !url) return undefined;
    livePages.set(url, (livePages.get(url) ?? 0) + 1);
    if (!seenChanges.has(url)) seenChanges.set(url, changes);
    return () => {
      const left = (livePages.get(url) ?? 1) - 1;
      if (left > 0) return void livePages.set(url, left);
      livePages.delete(url);
      // A change since its snapshot was taken: what is stored may show what is gone.
      if (seenChanges.get(url) !== changes) void dropSnapshot(url).catch(() => undefined);
      seenChanges.delete(url);
    };
  }, [live, url]);
  const { selector, least } = items;
  // Changes that keep coming (a burst of likes, a pull's rows, another tab's writes) take the
  // snapshot at most once a SNAPSHOT_GAP_MS, the last of them included: each taking costs about 3 ms
  // of the page's thread (its HTML cloned, hashed and stored), and a burst leaves idle moments between
  // its writes. One throttle for the page's life: a change of rows starts the effect below again.
  const [throttle] = useState(() => idleThrottle(SNAPSHOT_GAP_MS, 3_000));
  useEffect(() => {
    if (!live || !url) return undefined;
    // At idle, after the rows changed or after any local change: the page's first screen as it is now.
    const take = () => {
      const taken = snapshotGeneration();
      throttle.ask(() => {
        const owner = readStoredSession()?.email;
        const root = document.getElementById('root');
        if (!owner || !root || snapshotUrlFor(location.pathname, location.search, location.hash) !== url) return;
        const changesThen = changes;
        seenChanges.set(url, changesThen);
        const { css, styles } = stylesheetsOf(root);
        const html = snapshotHtml(root, selector, least);
        // After the start-up check: if it removed another member's snapshot, this save (taken before)
        // is dropped, and the next change of rows stores one under a new token. A change committed
        // since, once this page has gone, leaves nothing stored.
        void startupCheck
          .then(() =>
            saveSnapshot(
              url,
              { owner, css, styles, html },
              taken,
              () => readStoredSession()?.email === owner,
              () => livePages.has(url) || changes === changesThen,
            ),
          )
          .catch(() => undefined);
      });
    };
    take();
    changeListeners.add(take);
    return () => {
      throttle.cancel();
      changeListeners.delete(take);
    };
  }, [live, url, rows, selector, least, throttle]);
}

/**
 * The stylesheets a snapshot of `root` needs: the page's first one as its tag names it, and those
 * the app added for its screens (by path) that style something in `root` (a screen visited before
 * is not waited for, nor one still loading). A sheet that cannot be read counts as needed.
 */
function stylesheetsOf(root: HTMLElement): { css: string; styles: string[] } {
  const [first, ...others] = Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'));
  const styles = others.filter((link) => stylesRoot(link, root)).map((link) => new URL(link.href).pathname);
  return { css: first?.getAttribute('href') ?? '', styles };
}

function stylesRoot(link: HTMLLinkElement, root: HTMLElement): boolean {
  const matches = (rules: CSSRuleList): boolean =>
    Array.from(rules).some((rule) => {
      if (rule instanceof CSSStyleRule) {
        try {
          return root.querySelector(rule.selectorText) !== null;
        } catch {
          return true;
        }
      }
      return rule instanceof CSSGroupingRule ? matches(rule.cssRules) : false;
    });
  try {
    // Still loading: the page as taken does not use it yet.
    return link.sheet ? matches(link.sheet.cssRules) : false;
  } catch {
    return true;
  }
}
