import { lazyScreen } from './lazy-screen';

/** The forum's screen: its route (router.tsx), and the forum's first frame, which asks for its code once painted. */
export const forumScreen = lazyScreen('/forum', () => import('../pages/forum').then((m) => m.ForumPage));
