import type { CodeSplittingGroup } from 'rolldown';

export const FORUM_CHUNK: string;
export const RUNNER_CHUNK: string;
export function forumChunkGroup(root: string): CodeSplittingGroup;
