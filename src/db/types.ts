// The shapes every part of the app agrees on: posts (exactly the fields of product.md §3),
// the signed-in session, and the category list. No logic lives here.

import { CATEGORIES, type Category } from '../shared/post-rules';
import type { PollDefinition } from '../shared/polls';
import type { Attachment } from '../shared/attachments';

export { CATEGORIES, POST_STATUSES, type Category, type Post, type PostStatus, type Reply, type ReplyState } from '../shared/post-rules';

/** The forum filter: every category, plus `All`, which switches the category match off. */
export type CategoryFilter = Category | 'All' | (string & {});

export const CATEGORY_FILTERS: readonly CategoryFilter[] = ['All', ...CATEGORIES];

export const DEFAULT_CATEGORY: Category = 'Quantitative';

/** True for one of the six categories (the one category check of the app). */
export const isCategory = (value: unknown): value is Category => (CATEGORIES as readonly unknown[]).includes(value);

export type Role = 'admin' | 'user';

/** The signed-in user, stored under `insightExchangeUser`; never holds a password. */
export interface Session {
  email: string;
  name: string;
  role: Role;
}

export interface NewPostInput {
  title: string;
  content: string;
  category?: string;
  tags?: string[];
  /** A poll (issue 42). */
  poll?: PollDefinition;
  /** Files attached (issue 42), already kept on this device (db/files). */
  attachments?: Pick<Attachment, 'sha256' | 'name'>[];
}
