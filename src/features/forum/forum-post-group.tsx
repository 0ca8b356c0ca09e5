import { memo } from 'react';
import type { Post } from '../../db/types';
import type { ParsedQuery } from '../../shared/search-language';
import { ForumPost } from './forum-post';
import { FoundInReply } from './found-in-reply';

interface ForumPostGroupProps {
  /** One page of the list (usePagedLiveQuery's `pages`): a fixed range, rows never move between pages. */
  posts: readonly Post[];
  /** The signed-in member (for Save). */
  email: string;
  /** The member's saved posts; undefined while read. */
  saved: ReadonlySet<number> | undefined;
  /** The posts marked "New" in this view. */
  marked: ReadonlySet<number>;
  /** Replies new to the member, by post ("N new"). */
  unread: ReadonlyMap<number, number>;
  /** For a post a search found through one of its replies: that reply's id. */
  replies: Readonly<Record<number, string>>;
  /** The search, for the marked words. */
  query: ParsedQuery | undefined;
}

/**
 * True when every card of the group would get what it got: the same rows (the same objects: a page
 * read again gives new ones, and then the group renders and each card compares its post itself, once,
 * after which the group holds the new rows), each with the same Save state, "New" mark, "N new" count
 * and reply link. The sets and maps are the whole list's: only this group's entries in them are compared.
 */
function sameGroup(previous: ForumPostGroupProps, next: ForumPostGroupProps): boolean {
  if (previous.email !== next.email || previous.query !== next.query || previous.posts.length !== next.posts.length) return false;
  return previous.posts.every((post, at) => {
    const { id } = post;
    return (
      post === next.posts[at] &&
      previous.saved?.has(id) === next.saved?.has(id) &&
      previous.marked.has(id) === next.marked.has(id) &&
      (previous.unread.get(id) ?? 0) === (next.unread.get(id) ?? 0) &&
      previous.replies[id] === next.replies[id]
    );
  });
}

/**
 * One page of the forum's cards (issue 64, item 5). A page added below leaves the groups above it as
 * they were: React compares each group once and skips its cards, so adding the 20th page costs what
 * the 20th page costs, not what the list holds; a like or an edit re-renders the group that holds it.
 * It adds no element: the cards stay the list's children (its styles, the snapshot's markup, focus
 * order and every accessible name are as they were).
 */
export const ForumPostGroup = memo(function ForumPostGroup({ posts, email, saved, marked, unread, replies, query }: ForumPostGroupProps) {
  return (
    <>
      {posts.map((post) => {
        const card = (
          <ForumPost
            key={post.id}
            post={post}
            email={email}
            saved={saved?.has(post.id)}
            isNew={marked.has(post.id)}
            unread={unread.get(post.id) ?? 0}
            query={query}
          />
        );
        const reply = replies[post.id];
        return reply ? (
          <div key={post.id}>
            {card}
            <FoundInReply postId={post.id} replyId={reply} />
          </div>
        ) : (
          card
        );
      })}
    </>
  );
}, sameGroup);
