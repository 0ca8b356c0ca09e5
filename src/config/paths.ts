// Every URL of the app, named once. Screens link with these, never with string literals.
// (In src/config rather than src/app so that every layer can import it without importing upward.)

export const paths = {
  home: '/',
  about: '/about',
  login: '/login',
  signup: '/login?mode=signup',
  /** Forgot password (and, with ?token=, the emailed link's new password). */
  resetPassword: '/reset-password',
  /** The emailed link that confirms an address (?token=). */
  confirmEmail: '/confirm-email',
  /** A notification email's "Stop these emails" (?token=). */
  unsubscribe: '/unsubscribe',
  forum: '/forum',
  profile: '/profile',
  admin: '/admin',
  /** The admin queue opened on its Flags tab. */
  adminFlags: '/admin?tab=flags',
  adminInsights: '/admin/insights',
  /** The admin screen opened on its Members tab. */
  adminMembers: '/admin?tab=members',
  /** Every staff action, newest first. */
  adminLog: '/admin/log',
  notifications: '/notifications',
  /** The member's conversations (issue 61). */
  messages: '/messages',
  /** One conversation. */
  conversation: (id: string) => `/messages/${id}`,
  /** Opens New Post over the forum (the manifest's "New Post" shortcut). */
  newPost: '/new',
  /** The manifest's share_target: ?title=&text=&url= become a New Post draft. */
  share: '/share',
  /** A member's public page (id: memberId of their email). */
  member: (id: string) => `/members/${id}`,
  /** Profile's Saved Posts section (the manifest's "Saved" shortcut). */
  savedPosts: '/profile#saved-posts',
  /** A post's page (its conversation). */
  post: (id: number | string) => `/posts/${id}`,
  /** A post's page, opened at one of its replies. */
  reply: (postId: number | string, replyId: string) => `/posts/${postId}?reply=${encodeURIComponent(replyId)}`,
} as const;
