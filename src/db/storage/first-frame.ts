// The forum's first frame on a new device (issue 64, item 2). A member who signs in on a browser that
// holds no database yet (local-only: no account, no post, nothing of theirs) goes to the forum with
// nothing to see but what the data layer writes on its first start: the sample posts, or the posts
// an older build left under `posts`. Their first /forum paints those from their data with the app's
// own cards, header and sidebar (src/app/forum-first-frame.tsx) without the data layer's code; that
// code loads after the frame, and the live forum takes the frame's place in the same frame once its
// posts are read, as the snapshot does (src/boot/forum-snapshot-app.ts). The sample posts are dated
// from the moment kept here, and the data layer seeds them from the same moment: same ids, same
// links (unless another tab made the database first: the live list then shows that tab's).
//
// Constants and a tiny store only: the way to the first frame imports it.

import type { Post } from '../types';

/**
 * The class on `<html>` while the first frame is on screen (set by the frame once committed, removed
 * as it ends): the live protected page rendered after it stays out of sight (main.scss).
 */
export const FIRST_FRAME_ON_CLASS = 'first-frame-on';

/** The first frame's page element's class (the live page is the other `.app-page`). */
export const FIRST_FRAME_CLASS = 'app-first-frame';

/** The first frame never outstays this, whatever happens to the app. */
export const FIRST_FRAME_MAX_MS = 10_000;

/** What a first frame shows: the forum's first page, and how many posts the list says it holds. */
export interface FramePosts {
  posts: Post[];
  total: number;
}

let pending: { email: string; at: number; copy: FramePosts | null | undefined } | undefined;
let samplesAt: number | undefined;
let on = false;
const listeners = new Set<() => void>();

/**
 * A member signed in on a browser with no database: their next /forum paints the first frame, of
 * the sample posts dated from `at`, or of `copy`: an older build's posts read at Sign In
 * (db/mirror/frame-copy.ts; null: a copy that cannot be read, so no frame).
 */
export function markFirstFrame(email: string, at = Date.now(), copy?: FramePosts | null): void {
  pending = { email, at, copy };
  samplesAt = at;
}

/** The marked frame's posts read from an older build's copy (undefined: none was there; null: unreadable). */
export function firstFrameCopy(): FramePosts | null | undefined {
  return pending?.copy;
}

/**
 * Whether `email`'s /forum now paints the first frame (until it ends: asked again, the same answer);
 * the moment its sample posts are dated from, or undefined.
 */
export function takeFirstFrame(email: string): number | undefined {
  if (!pending || pending.email !== email) return undefined;
  on = true;
  return pending.at;
}

/** The moment the sample posts of a marked first frame were dated from, for the data layer's seed (undefined: no mark made on this page). */
export function firstFrameSamplesAt(): number | undefined {
  return samplesAt;
}

/** Whether a member's first frame is still to come or on screen: the forum's code waits for it. */
export function firstFramePending(): boolean {
  return pending !== undefined || on;
}

/** Whether the first frame is on screen. */
export function firstFrameShown(): boolean {
  return on;
}

/** The class that keeps the live page out of sight, set by the frame once on screen (its layout effect). */
export function showFirstFrameClass(): void {
  if (on && typeof document !== 'undefined') document.documentElement.classList.add(FIRST_FRAME_ON_CLASS);
}

/** The live page took over (or the member left /forum): the first frame goes, in this frame. Safe to call any time. */
export function endFirstFrame(): void {
  const was = firstFramePending();
  pending = undefined;
  if (on && typeof document !== 'undefined') document.documentElement.classList.remove(FIRST_FRAME_ON_CLASS);
  on = false;
  if (was) [...listeners].forEach((listener) => listener());
}

/** Runs `callback` now, or once the first frame still to come or on screen has ended (firstFramePending). */
export function afterFirstFrame(callback: () => void): void {
  if (!firstFramePending()) return callback();
  const stop = onFirstFrameEnd(() => {
    stop();
    callback();
  });
}

/** Tells `listener` when the first frame ends; returns the stop. */
export function onFirstFrameEnd(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
