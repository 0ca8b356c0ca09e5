// What the first load needs of the first-paint snapshots (forum-snapshot-app.ts takes them, with the
// forum's code): which path the painted one shows and its release, the start-up check of whose it is,
// and keeping the stored ones from going stale as this page writes (the state the pages on screen
// share with forum-snapshot-app.ts).

import { clearForumSnapshot, dropForeignSnapshot, dropSnapshotsBut } from '../db/storage/forum-snapshot';
import { onLocalChange } from '../db/storage/changes';
import { readSession } from '../db/members/session';
import { SNAPSHOT_ON_CLASS, SNAPSHOT_PATH_ATTRIBUTE, SNAPSHOT_VIEW_ID } from './forum-snapshot-names';

/** The snapshot pages on screen in this page, by snapshot URL (with how many of each): they rewrite theirs. */
export const livePages = new Map<string, number>();

/** Counts the local changes committed by this page. */
export let changes = 0;

/**
 * For each page on screen, the count of changes its stored snapshot has seen (when it came on
 * screen, or when its HTML was last taken): a page that leaves after a later change (its post
 * deleted, or left before it took its snapshot again) takes its snapshot with it.
 */
export const seenChanges = new Map<string, number>();

/** The pages on screen, told of each local change (they take their snapshot again). */
export const changeListeners = new Set<() => void>();

/**
 * Keeps the stored snapshots from going stale: a change committed by this page (a local write, an
 * import, or posts that arrived by a sync pull) removes every snapshot but those of the pages on
 * screen (which take theirs again), or all of them and the cookie when none is on screen.
 * Returns the stop.
 */
export function keepForumSnapshotFresh(): () => void {
  return onLocalChange(() => {
    changes += 1;
    dropStale();
    changeListeners.forEach((listener) => listener());
  });
}

/** A removal of the snapshots not on screen under way, and whether changes came since it began. */
let dropping = false;
let dropAgain = false;

/** After a change: every snapshot and the cookie when no page is on screen, else the snapshots of the pages not on screen. */
function dropStale(): void {
  if (livePages.size === 0) clearForumSnapshot();
  else dropOthers();
}

/**
 * Removes the stored snapshots of the pages not on screen, once more after the removal under way
 * when there is one: a burst of changes costs two removals, not one each.
 */
function dropOthers(): void {
  if (dropping) {
    dropAgain = true;
    return;
  }
  dropping = true;
  void dropSnapshotsBut(new Set(livePages.keys()))
    .catch(() => undefined)
    .finally(() => {
      dropping = false;
      if (!dropAgain) return;
      dropAgain = false;
      dropStale();
    });
}

/** The start-up check below: no snapshot is stored before it has run (a save would keep the old token). */
export let startupCheck: Promise<void> = Promise.resolve();

/**
 * At start-up, once the session is read: a stored snapshot that is not the signed-in member's (the
 * session was changed by something that knows nothing of snapshots) is removed.
 */
export function dropSnapshotOfOthers(): void {
  startupCheck = readSession()
    .then((session) => dropForeignSnapshot(session?.email))
    .catch(() => undefined);
}

/** The path the painted snapshot was taken for (null when none is on screen). */
export function snapshotPath(): string | null {
  return typeof document === 'undefined'
    ? null
    : (document.getElementById(SNAPSHOT_VIEW_ID)?.getAttribute(SNAPSHOT_PATH_ATTRIBUTE) ?? null);
}

/** Removes the snapshot (if one is painted) and shows the live app. Safe to call any time. */
export function releaseSnapshot(): void {
  window.__snapshotDone = true;
  document.getElementById(SNAPSHOT_VIEW_ID)?.remove();
  document.documentElement.classList.remove(SNAPSHOT_ON_CLASS);
}
