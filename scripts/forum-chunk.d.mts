import type { CodeSplittingGroup } from 'rolldown';

export const FORUM_CHUNK: string;
export const RUNNER_CHUNK: string;
export const FIRST_FRAME_CHUNK: string;
export const FRAME_COPY_CHUNK: string;
export function forumChunkGroup(root: string): CodeSplittingGroup;
export const BASE_CHUNK: string;
export function baseChunkGroup(root: string): CodeSplittingGroup;
