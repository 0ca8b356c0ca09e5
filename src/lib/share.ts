// Sharing a post's link: the Web Share API where the browser offers it, else the clipboard. UI-free:
// the share button turns each outcome into what a person sees (nothing, a toast, or the link dialog).
import { paths } from '../config/paths';

/** What came of a share: the share sheet took it, the person closed it, the link was copied, or nothing could. */
export type ShareOutcome = 'shared' | 'cancelled' | 'copied' | 'refused';

/** The address of a post's page on this origin (whoever may see the post can open it). */
export function postUrl(postId: number): string {
  return `${location.origin}${paths.post(postId)}`;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** Writes `text` to the clipboard; false when there is none or it refuses (no permission, no focus). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Shares a link. Called straight from a click: the share sheet and the clipboard both need the
 * person's gesture. A share sheet that fails for another reason than the person's cancel (no
 * gesture left, a blocked share) falls back to the clipboard.
 */
export async function shareLink(title: string, url: string): Promise<ShareOutcome> {
  if (typeof navigator.share === 'function' && navigator.canShare?.({ url }) !== false) {
    try {
      await navigator.share({ title, url });
      return 'shared';
    } catch (error) {
      if (isAbort(error)) return 'cancelled';
    }
  }
  return (await copyText(url)) ? 'copied' : 'refused';
}
