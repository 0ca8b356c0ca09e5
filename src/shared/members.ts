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
 * A member's public id: 16 hex digits of FNV-1a (64-bit) of the lower-cased email. The device
 * and the server compute the same id from a post's authorEmail, in both modes, without a lookup;
 * it is the `/members/:id` of that author.
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

/** What `/members/:id` shows: only what every member may see (no email, nothing pending). */
export interface MemberProfile {
  id: string;
  name: string;
  /** When the member joined (ms since the epoch), or null when this device cannot tell. */
  joinedAt: number | null;
  approvedPosts: number;
  replyCount: number;
  likesReceived: number;
}
