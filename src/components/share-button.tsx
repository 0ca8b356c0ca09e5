import { lazy, Suspense, useState } from 'react';
import { useToast } from './toast/toast-context';
import { DISPLAY_CHARS, clip } from '../lib/format';
import { postUrl, shareLink } from '../lib/share';
import type { Post } from '../db/types';

// The dialog is react-bootstrap, loaded only when the clipboard refuses (the forum's first
// download stays plain markup).
const ShareDialog = lazy(() => import('./share/share-dialog').then((module) => ({ default: module.ShareDialog })));

/** The text of the toast after the link was copied (the dialog's Copy says the same). */
export const LINK_COPIED = { title: 'Link copied', description: 'Anyone who can see this post can open it.' } as const;

/** Share: the share sheet, else the link copied, else a dialog that shows the link to copy. */
export function ShareButton({ post }: { post: Pick<Post, 'id' | 'title'> }) {
  const showToast = useToast();
  // The dialog's link stays while it fades out (`open` false), then goes.
  const [dialog, setDialog] = useState<{ url: string; open: boolean } | null>(null);
  const title = clip(post.title, DISPLAY_CHARS.title);

  const share = async () => {
    const url = postUrl(post.id);
    const outcome = await shareLink(title, url);
    if (outcome === 'copied') showToast(LINK_COPIED);
    else if (outcome === 'refused') setDialog({ url, open: true });
  };

  return (
    <>
      <button type="button" className="btn btn-sm app-share" aria-label={`Share: ${title}`} onClick={() => void share()}>
        <span className="app-share-label">Share</span>
      </button>
      {dialog && (
        <Suspense fallback={null}>
          <ShareDialog
            url={dialog.url}
            show={dialog.open}
            onCopied={() => showToast(LINK_COPIED)}
            onHide={() => setDialog((current) => current && { ...current, open: false })}
            onExited={() => setDialog(null)}
          />
        </Suspense>
      )}
    </>
  );
}
