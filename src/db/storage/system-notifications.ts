// The system notifications the app shows through the service worker (features/notifications/
// notification-watcher.tsx): a post's title on the screen and in the system's list, outside every
// store of the app. Whatever takes posts off the device (lost access: sync/forget-revoked.ts) closes
// theirs; a sign-in or sign-out (storage/forum-snapshot.ts) closes them all.

/** Closes the notifications of posts `posts` (their `data.url` is the post's page), or (`'all'`) every one. */
export async function closeSystemNotifications(posts: readonly number[] | 'all'): Promise<void> {
  const registration = posts.length > 0 ? await globalThis.navigator?.serviceWorker?.getRegistration() : undefined;
  if (!registration || typeof registration.getNotifications !== 'function') return;
  const gone = posts === 'all' ? null : new Set(posts.map(String));
  for (const shown of await registration.getNotifications()) {
    const url: unknown = (shown.data as { url?: unknown } | null)?.url;
    const postId = typeof url === 'string' ? /^\/posts\/(\d+)(?:[#?]|$)/.exec(url)?.[1] : undefined;
    if (gone === null || (postId !== undefined && gone.has(postId))) shown.close();
  }
}
