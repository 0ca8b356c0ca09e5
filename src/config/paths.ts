// Every URL of the app, named once. Screens link with these, never with string literals.
// (In src/config rather than src/app so that every layer can import it without importing upward.)

export const paths = {
  home: '/',
  about: '/about',
  login: '/login',
  signup: '/login?mode=signup',
  forum: '/forum',
  profile: '/profile',
  admin: '/admin',
  /** The admin queue opened on its Flags tab. */
  adminFlags: '/admin?tab=flags',
  adminInsights: '/admin/insights',
  notifications: '/notifications',
  /** A member's page (their public profile); `id` is memberId(email). */
  member: (id: string) => `/members/${id}`,
  /** Profile's Saved Posts section. */
  savedPosts: '/profile#saved-posts',
  /** A post's page (its conversation). */
  post: (id: number | string) => `/posts/${id}`,
  /** A post's page, opened at one of its replies. */
  reply: (postId: number | string, replyId: string) => `/posts/${postId}?reply=${encodeURIComponent(replyId)}`,
} as const;
