// A page of GET /api/changes for fixture tests: empty lists unless given.
import type { PullResponse } from '../../../src/shared/protocol';

export const pullPage = (overrides: Partial<PullResponse>): PullResponse => ({
  posts: [],
  replies: [],
  removed: [],
  notifications: [],
  flags: [],
  cursor: 1,
  more: false,
  ...overrides,
});
