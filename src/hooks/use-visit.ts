import { useEffect, useState } from 'react';
import { afterFirstPosts } from '../db/storage/idle';

// What's new (issue 23): one visit per page load and member. The previous visit's time is asked
// once, when the member's data is ready, and kept here for every screen of this page load.
const visits = new Map<string, Promise<number>>();

/** Starts this page load's visit for the member (once; later calls return the same answer). */
export function beginVisit(email: string): Promise<number> {
  let since = visits.get(email);
  if (!since) {
    // A failure means nothing is marked new (as on a first visit), never an error on screen.
    since = import('../db/posts/whats-new').then(({ startVisit }) => startVisit(email)).catch(() => Date.now());
    visits.set(email, since);
  }
  return since;
}

/** The previous visit's time for the member (undefined until known; 0: nothing is new). */
export function useVisitSince(email: string | null): number | undefined {
  const [answer, setAnswer] = useState<{ email: string; since: number }>();
  useEffect(() => {
    if (!email) return undefined;
    let live = true;
    // Its code (and the visit's read) waits for the first posts: nothing is new before they show.
    const cancel = afterFirstPosts(1_000, () => {
      void beginVisit(email).then((since) => {
        if (live) setAnswer({ email, since });
      });
    });
    return () => {
      live = false;
      cancel();
    };
  }, [email]);
  return answer && answer.email === email ? answer.since : undefined;
}
