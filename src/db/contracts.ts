// Every localStorage key and fixed identity value, named once. The two legacy keys exist for an
// older build that kept everything in localStorage: they are a compatibility mirror only.

/** localStorage key of the signed-in user: JSON `{ email, name, role }`. */
export const USER_KEY = 'insightExchangeUser';

/** localStorage key of the legacy posts array (mirror of IndexedDB). */
export const POSTS_KEY = 'posts';

/** Prefix of the keys that keep an unreadable `posts` value aside: `posts.corrupt-<timestamp>`. */
export const CORRUPT_POSTS_PREFIX = 'posts.corrupt-';

/** Prefix of the last-moment copy of a member's New Post draft, written when the page goes away. */
export const DRAFT_KEY_PREFIX = 'insightExchangeDraft:';

/** The IndexedDB database, the source of truth for posts. */
export const DATABASE_NAME = 'insight-exchange';
