// What's new since the member's previous visit (a page load), per member, on this device.

/** Records this visit and returns the previous visit's time (0 on the first visit ever). */
export async function startVisit(_email: string): Promise<number> {
  return 0;
}

/** Approved posts that arrived here after `since`, not written by `email`, not seen; newest first. */
export async function newPostIds(_email: string, _since: number): Promise<number[]> {
  return [];
}

/** The same for the replies of one post. */
export async function newReplyIds(_email: string, _postId: number, _since: number): Promise<string[]> {
  return [];
}

export async function markSeen(_email: string, _items: { postIds?: number[]; replyIds?: string[] }): Promise<void> {}
