// Editing and deleting posts (issue 21). THE SIGNATURES ARE THE CONTRACT the UI codes against;
// the bodies are written by the data layer's work (this file is replaced, not kept as a stub).

import type { NewPostFields, Post, PostEdits } from '../../shared/post-rules';

/** A post as the post page and the lists show it: its fields plus its edits. */
export type EditablePost = Post & PostEdits;

/** What a deletion returns: pass it to undoDeletion within UNDO_WINDOW_MS. */
export interface UndoToken {
  token: string;
  /** When Undo stops working (ms since the epoch). */
  until: number;
}

/**
 * Saves the author's edit of their own post (title, content, category; tags stay unless given),
 * following editedPost of src/shared/post-rules.ts: a rejected post becomes pending (resubmitted),
 * an approved one stays approved and shows "edited". Throws `invalid` (the New Post rules),
 * `not_found`, `not_your_post`. The edit's kept draft (if any) is cleared.
 */
export declare function editPost(id: number, fields: NewPostFields): Promise<EditablePost>;

/**
 * Deletes a post (its author, or an admin) and its replies from this device at once, in every
 * tab and the mirror; the server hears of it after UNDO_WINDOW_MS unless undone. Throws
 * `not_found`, `not_your_post`.
 */
export declare function deletePost(id: number): Promise<UndoToken>;

/** Puts back what a deletion removed and drops its held operation; throws `too_late_to_undo` after the window. */
export declare function undoDeletion(token: UndoToken): Promise<void>;

/** The member's kept edit of a post (after the server refused it), or null. */
export declare function loadEditDraft(email: string, postId: number): Promise<NewPostFields | null>;

/** Forgets the kept edit. */
export declare function clearEditDraft(email: string, postId: number): Promise<void>;
