// Server answers for fixture tests: a page of GET /api/changes (empty lists unless given) and a
// post as the server sends it (no edits, no reason, unless given).
import type { PullResponse, WirePost } from '../../../src/shared/protocol';
import type { Post } from '../../../src/db/types';

export const pullPage = (overrides: Partial<PullResponse>): PullResponse => ({
  posts: [],
  replies: [],
  removed: [],
  notifications: [],
  flags: [],
  saved: [],
  preferences: null,
  members: [],
  groups: [],
  groupMembers: [],
  categories: [],
  conversations: [],
  messages: [],
  follows: [],
  reads: [],
  cursor: 1,
  more: false,
  ...overrides,
});

export const wirePost = (post: Post, overrides: Partial<WirePost> = {}): WirePost => ({
  ...post,
  editedAt: null,
  resubmitted: false,
  reason: null,
  previous: null,
  authorId: '',
  seq: 1,
  ...overrides,
  poll: overrides.poll ?? null,
  attachments: overrides.attachments ?? [],
});
