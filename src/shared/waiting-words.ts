// What waits for a member or an admin, as the header says it: its links' and buttons' descriptions.

/**
 * The Admin link's description, for what waits for an admin: posts to review and items with open
 * flags. "3 posts waiting for review", "1 post waiting for review", "No posts waiting for review";
 * with flags, "3 posts and 2 flagged items waiting for review", "1 flagged item waiting for review".
 */
export function pendingDescription(count: number, flagged = 0): string {
  const amount = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
  if (flagged === 0) return count === 0 ? 'No posts waiting for review' : `${amount(count, 'post', 'posts')} waiting for review`;
  const flags = amount(flagged, 'flagged item', 'flagged items');
  return count === 0 ? `${flags} waiting for review` : `${amount(count, 'post', 'posts')} and ${flags} waiting for review`;
}

/** The header's Messages link's accessible description (issue 61), and a conversation's unread badge's. */
export function unreadMessagesDescription(count: number): string {
  if (count === 0) return 'No unread messages';
  return `${count.toLocaleString('en-US')} unread message${count === 1 ? '' : 's'}`;
}

/** The Notifications button's description: "3 unread notifications", "1 unread notification", "No unread notifications". */
export function unreadDescription(count: number): string {
  if (count === 0) return 'No unread notifications';
  return `${count.toLocaleString('en-US')} unread notification${count === 1 ? '' : 's'}`;
}
