// Members as the device (both modes), the server and the tests see them: a member's public id and
// page, what follows them to every device (their preferences), and their saved posts' shape.

import type { Theme } from './theme';

/** A member's saved post (device rows and the wire). `saved` false is an unsave that still syncs. */
export interface SavedPost {
  postId: number;
  saved: boolean;
  /** When it was last saved or unsaved (ms since the epoch). */
  at: number;
}

/** What a member chose that follows them to every device. */
export interface Preferences {
  theme: Theme;
  /** The member's display name (Profile's "Edit Profile"). */
  name: string;
}

/**
 * A local-only member's public id: 16 hex digits of FNV-1a (64-bit) of the lower-cased email, the
 * `/members/:id` of that author on a device without a server. A server gives each account a random
 * id of the same shape instead (its `authorId`): this one would tell anyone who guessed an email
 * whether it has an account.
 */
export function memberId(email: string): string {
  let hash = 0xcbf29ce484222325n;
  const bytes = new TextEncoder().encode(email.trim().toLowerCase());
  for (const byte of bytes) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

export const MEMBER_ID_PATTERN = /^[0-9a-f]{16}$/u;

/**
 * The id of the member who wrote `item`, for their page: the server's random id (`authorId`,
 * connected mode), else memberId of the email (a local-only row); '' when neither is known (another
 * member's row from an older pull, whose email this device no longer holds).
 */
export const authorKey = (item: { authorId?: string; authorEmail: string }): string =>
  item.authorId || (item.authorEmail ? memberId(item.authorEmail) : '');

/** What `/members/:id` shows: only what every member may see (no email, nothing pending). */
export interface MemberProfile {
  id: string;
  name: string;
  /** 'admin' for the admin (the Admin badge beside the name), else 'user'. */
  role: 'admin' | 'user';
  /** When the member joined (ms since the epoch), or null when this device cannot tell. */
  joinedAt: number | null;
  approvedPosts: number;
  replyCount: number;
  likesReceived: number;
}
