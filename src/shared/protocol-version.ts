// The sync protocol's version and the header that carries it (docs/sync-protocol.md), apart from
// the schemas of ./protocol.ts (which re-exports them): a request sent before zod has loaded
// (src/sync/early.ts) carries them too.

/**
 * The version of this protocol. Devices send it with every request (PROTOCOL_HEADER) and the
 * server answers `protocol_mismatch` to another one; /api/health returns it. Raise it only when a
 * device of the previous version could misread an answer; say what changed in docs/sync-protocol.md.
 */
export const PROTOCOL_VERSION = 8;
/**
 * The versions this build's server serves. Version 2 added replies and views (new operations, and
 * `replies` in a pull); a version-1 device keeps working for posts and likes: its pulls carry no
 * replies, and it never sends the new operations. Version 3 added editing and deleting posts
 * (`editPost`, `deletePost`, the posts' `editedAt`, `resubmitted` and `previous`, and `removed` in
 * a pull); a deleted post is left out of an older device's pulls (it keeps its copy until it updates).
 * Version 4 added moderation and notifications: a reason on `reject`, the operations `hidePost`,
 * `flag`, `dismissFlags` and `readNotifications`, the posts' `reason`, and `notifications` and
 * `flags` in a pull; an older device gets none of them (a hidden post reaches it as rejected).
 * Version 5 added saved posts and preferences: the operations `save`, `setTheme` and `rename`, `saved` and
 * `preferences` in a pull, and the routes GET /api/search and GET /api/members/:id; an older
 * device gets none of them (a renamed member's posts reach it with the new name all the same).
 * Version 6 (safe with strangers) added the authors' public ids (`authorId`, `actorId`) and
 * `members` in a pull (a rename is one change: an older device sees a new name only on what changes
 * afterwards), the Members operations of /admin, the staff log, limits (`slow_down`) and search
 * over replies. Every version gets blank `authorEmail`s for others' posts and replies.
 * Version 7 (private spaces, issue 61) added groups: the Groups operations of /admin, and `groups`
 * and `groupMembers` in a pull), categories the admins shape (their operations, `categories` in a pull) and messages (the
 * operations `startConversation`, `sendMessage`, `readMessages`, `leaveConversation` and
 * `flagMessage`, and `conversations` and `messages` in a pull: a member's own only); an older device
 * gets none of them.
 * Version 8 (following, issue 62) added levels and read positions: the operations `follow`,
 * `readPost` and `setAutoWatch`, `follows` and `reads` in a pull (a member's own only), and
 * `autoWatch` in `preferences`; an older device gets none of them.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8];
/** The request header that carries the device's PROTOCOL_VERSION. */
export const PROTOCOL_HEADER = 'x-insight-protocol';
