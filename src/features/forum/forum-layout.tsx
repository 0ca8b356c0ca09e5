import type { ReactNode } from 'react';
import { ForumStats } from './forum-stats';

/**
 * The forum's page around its posts: the hero with the stats, then the drafts kept for the member,
 * the toolbar, the posts (`children`) and the sidebar. One layout for the live forum (pages/forum.tsx)
 * and its first frame on a new browser (first-frame.tsx), so the one replaces the other without a move.
 */
export function ForumLayout({
  drafts,
  toolbar,
  sidebar,
  children,
}: {
  drafts?: ReactNode;
  toolbar: ReactNode;
  sidebar: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <section className="app-forum-hero" aria-labelledby="forum-title">
        <div className="container">
          <h1 id="forum-title">Community Forum</h1>
          <p className="app-hero-lead">Ask questions, share what you learned and see how other researchers tackle the same problems.</p>
          <ForumStats />
        </div>
      </section>
      <div className="container app-forum-body">
        {drafts}
        {toolbar}
        <div className="row g-4">
          <section className="col-lg-8" aria-labelledby="posts-title">
            <h2 id="posts-title" className="visually-hidden">
              Posts
            </h2>
            {children}
          </section>
          <aside className="col-lg-4" aria-label="Community highlights">
            {sidebar}
          </aside>
        </div>
      </div>
    </>
  );
}
