import { useLayoutEffect } from 'react';
import { AppShell } from '../components/layouts/app-shell';
import { FirstFrameContext } from '../hooks/first-frame-context';
import { ForumLayout } from '../features/forum/forum-layout';
import { ForumPost } from '../features/forum/forum-post';
import { ForumSidebar } from '../features/forum/forum-sidebar';
import { ForumToolbar } from '../features/forum/forum-toolbar';
import { InstallButton } from '../features/pwa/install-button';
import { OfflineBadge } from '../features/pwa/offline-badge';
import { samplePosts } from '../shared/sample-posts';
import { plural } from '../lib/format';
import { FIRST_FRAME_ON_CLASS, firstFrameCopy, showFirstFrameClass, type FramePosts } from '../db/storage/first-frame';
import type { Session } from '../db/types';

const nothing = () => undefined;
const noLevels = () => undefined;

/** What the first frame shows: the forum's first page, and how many posts the list says it holds. */
export type FrameContent = FramePosts;

/**
 * The posts a new browser's forum opens on, as the data layer is about to write them: an older
 * build's posts read at Sign In (db/mirror/frame-copy.ts) when it left some here, else the sample
 * posts dated from `samplesAt` (the seed dates them from the same moment), newest first, as the live
 * list shows them. Undefined for a copy that cannot be read (the live forum says so itself).
 */
export function firstFrameContent(samplesAt: number): FrameContent | undefined {
  const copy = firstFrameCopy();
  if (copy !== undefined) return copy ?? undefined;
  const posts = samplePosts(samplesAt).sort((a, b) => b.id - a.id);
  return { posts, total: posts.length };
}

/**
 * The forum's first frame on a new browser (db/storage/first-frame.ts): the live forum's header,
 * layout, toolbar, cards and sidebar, with the posts firstFrameContent gives. It reads nothing of the
 * device's database and loads none of the data layer's code; it is inert (a press waits for the
 * live page, which takes its place in the same frame once its posts are read).
 */
export function ForumFirstFrame({ user, content }: { user: Session; content: FrameContent }) {
  const { posts, total } = content;
  // Once on screen (committed, not while a transition may still show the page before), the live page
  // rendered after it stays out of sight; it comes back when the frame goes, however it goes.
  useLayoutEffect(() => {
    showFirstFrameClass();
    return () => document.documentElement.classList.remove(FIRST_FRAME_ON_CLASS);
  }, []);
  return (
    <FirstFrameContext.Provider value={true}>
      <AppShell
        frame
        isAdmin={user.role === 'admin'}
        unreadCount={0}
        onNewPost={nothing}
        onNewPostIntent={nothing}
        onLogout={nothing}
        status={
          <>
            <OfflineBadge />
            <InstallButton />
          </>
        }
      >
        <ForumLayout
          toolbar={
            <ForumToolbar search="" category="All" signedIn onSearchChange={nothing} onCategoryChange={nothing} onQueryEdit={nothing} />
          }
          sidebar={<ForumSidebar levelOf={noLevels} />}
        >
          <p className="app-results">{plural(total, 'post')}</p>
          <div className="app-post-list" aria-busy="false">
            {posts.map((post) => (
              <ForumPost key={post.id} post={post} email={user.email} saved={false} isNew={false} query={undefined} />
            ))}
          </div>
        </ForumLayout>
      </AppShell>
    </FirstFrameContext.Provider>
  );
}
