// Every operation of the protocol, one line each: the device's outbox, the server's push, the
// replay of unconfirmed operations and protocol.ts's wire schema all find an operation here by its
// type. Adding an operation: its definition (one file beside this one), its line here, its cases in
// tests/ops/, its screen, and its line in docs/sync-protocol.md's Op union (docs/architecture.md, "A new
// operation", lists these and what else some take).
import { create } from './create';
import { deletePost } from './delete-post';
import { deleteReply } from './delete-reply';
import { dismissFlags } from './dismiss-flags';
import { dismissMessageFlags } from './dismiss-message-flags';
import { editPost } from './edit-post';
import { editReply } from './edit-reply';
import { flag } from './flag';
import { follow, readPost, setAutoWatch } from './follow';
import { archiveCategory, createCategory, editCategory, moveCategory } from './categories';
import { addGroupMember, createGroup, editGroup, removeGroupMember } from './groups';
import { hidePost } from './hide-post';
import { hideReply, restoreReply } from './hide-reply';
import { like } from './like';
import { flagMessage, leaveConversation, readMessages, sendMessage, startConversation } from './messages';
import { deleteSpammer, silenceMember, suspendMember } from './moderate-member';
import { readNotifications } from './read-notifications';
import { rename } from './rename';
import { reply } from './reply';
import { approve, reject } from './review';
import { save } from './save';
import { setTheme } from './set-theme';
import { view } from './view';
import { closePoll, vote } from './vote';

export const OPERATIONS = [
  create,
  like,
  approve,
  reject,
  reply,
  editReply,
  deleteReply,
  hideReply,
  restoreReply,
  view,
  editPost,
  deletePost,
  hidePost,
  flag,
  dismissFlags,
  readNotifications,
  save,
  setTheme,
  rename,
  suspendMember,
  silenceMember,
  deleteSpammer,
  vote,
  closePoll,
  createGroup,
  editGroup,
  addGroupMember,
  removeGroupMember,
  createCategory,
  editCategory,
  moveCategory,
  archiveCategory,
  startConversation,
  sendMessage,
  readMessages,
  leaveConversation,
  flagMessage,
  dismissMessageFlags,
  follow,
  readPost,
  setAutoWatch,
] as const;

export type AnyDefinition = (typeof OPERATIONS)[number];
export type OpType = AnyDefinition['type'];
/** The definition of one type. */
export type DefinitionOf<T extends OpType> = Extract<AnyDefinition, { type: T }>;
/** The checked arguments of one type (what its `parse` returns). */
export type ArgsOf<T extends OpType> = ReturnType<DefinitionOf<T>['parse']>;

const BY_TYPE = new Map<string, AnyDefinition>(OPERATIONS.map((definition) => [definition.type, definition]));

/** The definition of `type` (every type the wire schema lets through has one). */
export function definitionOf<T extends OpType>(type: T): DefinitionOf<T> {
  return BY_TYPE.get(type) as DefinitionOf<T>;
}
