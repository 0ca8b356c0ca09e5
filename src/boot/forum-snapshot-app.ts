// The app's side of the forum snapshot: takes it from the live first page once the browser is
// idle, and hands over from the snapshot (painted by forum-snapshot.ts before the app booted) to
// the live list in the same frame, so nothing moves. Storing it is src/db/core/forum-snapshot.ts.

import { useEffect, useLayoutEffect } from 'react';
import { whenIdle } from '../db/core/idle';
import { clearForumSnapshot, dropForeignSnapshot, saveForumSnapshot, snapshotGeneration } from '../db/core/forum-snapshot';
import { onLocalChange } from '../db/core/changes';
import { readSession, readStoredSession } from '../db/accounts/session';
import { SNAPSHOT_ON_CLASS, SNAPSHOT_STYLE_ATTRIBUTE, SNAPSHOT_VIEW_ID } from './forum-snapshot-names';

/** The most posts the snapshot keeps: the first page. */
const SNAPSHOT_POSTS = 20;

/** How many live first pages (no search, every category) are on screen in this page: they rewrite the snapshot. */
let liveFirstPages = 0;

/**
 * Keeps the stored snapshot from going stale: a change committed by this page (a local write, an
 * import, or posts that arrived by a sync pull) while no live first page is on screen to rewrite
 * it removes it; the live list stores a fresh one when it next shows. Returns the stop.
 */
export function keepForumSnapshotFresh(): () => void {
  return onLocalChange(() => {
    if (liveFirstPages === 0) clearForumSnapshot();
  });
}

/** The start-up check below: no snapshot is stored before it has run (a save would keep the old token). */
let startupCheck: Promise<void> = Promise.resolve();

/**
 * At start-up, once the session is read: a stored snapshot that is not the signed-in member's (the
 * session was changed by something that knows nothing of snapshots) is removed.
 */
export function dropSnapshotOfOthers(): void {
  startupCheck = readSession()
    .then((session) => dropForeignSnapshot(session?.email))
    .catch(() => undefined);
}

/** How many posts the painted snapshot shows (0 when none is on screen). */
export function snapshotPostCount(): number {
  return typeof document === 'undefined' ? 0 : document.querySelectorAll(`#${SNAPSHOT_VIEW_ID} article`).length;
}

/** Removes the snapshot (if one is painted) and shows the live app. Safe to call any time. */
export function releaseSnapshot(): void {
  window.__snapshotDone = true;
  document.getElementById(SNAPSHOT_VIEW_ID)?.remove();
  document.documentElement.classList.remove(SNAPSHOT_ON_CLASS);
}

/**
 * How many of the page's posts the snapshot keeps: those that start within the first screen (at
 * least one, at most SNAPSHOT_POSTS). Every post more is style, layout and paint before the first
 * frame (measured: the first screen's posts alone halve it on a phone).
 */
function postsOnFirstScreen(root: HTMLElement): number {
  const articles = Array.from(root.querySelectorAll('article')).slice(0, SNAPSHOT_POSTS);
  const fold = window.innerHeight;
  const visible = articles.filter((article) => article.getBoundingClientRect().top + window.scrollY < fold).length;
  return Math.max(1, visible);
}

/** The first screen of #root as HTML: the posts that start on it, nothing focused or typed. */
export function snapshotHtml(root: HTMLElement): string {
  const keep = postsOnFirstScreen(root);
  const copy = root.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('article').forEach((article, index) => {
    if (index >= keep) article.remove();
  });
  copy.querySelectorAll('[role="status"], [aria-live], .toast, [data-not-in-snapshot]').forEach((element) => element.remove());
  // The CSP blocks style attributes in parsed markup: forum-snapshot.ts applies these.
  copy.querySelectorAll<HTMLElement>('[style]').forEach((element) => {
    element.setAttribute(SNAPSHOT_STYLE_ATTRIBUTE, element.getAttribute('style') ?? '');
    element.removeAttribute('style');
  });
  return copy.innerHTML;
}

/**
 * Once the forum's live list is shown: removes the snapshot in the same frame; on the first page
 * (`saveable`: no search, every category) stores a fresh snapshot whenever the rows change, whether
 * a local write or a sync pull changed them (Dexie's live query follows both).
 */
export function useForumSnapshot(shown: boolean, saveable: boolean, rows: unknown): void {
  useLayoutEffect(() => {
    if (shown) releaseSnapshot();
  }, [shown]);
  useEffect(() => {
    if (!shown || !saveable) return undefined;
    liveFirstPages += 1;
    return () => {
      liveFirstPages -= 1;
    };
  }, [shown, saveable]);
  useEffect(() => {
    if (!shown || !saveable) return undefined;
    const taken = snapshotGeneration();
    return whenIdle(() => {
      const owner = readStoredSession()?.email;
      const root = document.getElementById('root');
      if (!owner) return;
      const css = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')?.getAttribute('href') ?? '';
      if (!root || location.pathname !== '/forum' || location.search) return;
      const html = snapshotHtml(root);
      // After the start-up check: if it removed another member's snapshot, this save (taken before)
      // is dropped, and the next change of rows stores one under a new token.
      void startupCheck
        .then(() => saveForumSnapshot({ owner, css, html }, taken, () => readStoredSession()?.email === owner))
        .catch(() => undefined);
    }, 3_000);
  }, [shown, saveable, rows]);
}
