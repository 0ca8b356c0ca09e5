// The `posts` compatibility copy, by its old path: the code lives in read.ts (parse, own copies,
// keeping unreadable data aside), import.ts (import as differences), write.ts (the snapshot) and
// scheduler.ts (when to write, the page's listeners). Kept so existing imports stay valid.

export { onMirrorReport, parseMirror, type MirrorReport, type ParsedMirror } from './read';
export { applyExternalPostsChange, importLegacyPosts, type LegacyImportResult } from './import';
export { MIRROR_BUDGET_CHARS, MIRROR_STATS_KEY, mirrorIsCurrent, readMirrorStats, writeMirrorNow, type MirrorStats } from './write';
export { startLegacyMirror, type LegacyMirror, type MirrorOptions } from './scheduler';
