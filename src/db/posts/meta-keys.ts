// The per-member `meta` keys of the posts' domain: when a member's visit began, for What's new (their
// prefixes live in ../contracts.ts).

import { META_KEY_PREFIXES } from '../contracts';
import { normalizeEmail } from '../../shared/post-rules';

export const metaKeyOf = {
  /** When the member's current visit began (whats-new.ts). */
  visit: (email: string) => `${META_KEY_PREFIXES.visit}${normalizeEmail(email)}`,
};
