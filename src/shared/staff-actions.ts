// The staff log's actions (server/db/staff/staff-log.ts, read on /admin/log): an admin's operation
// whose definition says it is a staff action (`staff` in src/shared/ops: when, and its words), and
// these others, which are no operation: a changed limit, a password reset link made or emailed.
import type { StaffDetail } from './ops/define';
import { OPERATIONS, type OpType } from './ops/registry';

/** The staff's actions that are no operation, and how /admin/log words each. */
export const OTHER_STAFF_ACTIONS = {
  setLimit: 'changed the limit',
  copyResetLink: 'made a password reset link for',
  sendResetLink: 'emailed a password reset link to',
  /** Issue 61: an admin read a conversation through a flag of one of its messages (named: its author). */
  openFlaggedConversation: 'opened a flagged message of',
  /** Issue 63: a staff account's security changes (the actor is the member named, unless an admin acted on another). */
  turnOnTwoStep: 'turned on two-step verification for',
  turnOffTwoStep: 'turned off two-step verification for',
  newRecoveryCodes: 'made new recovery codes for',
  addPasskey: 'added a passkey for',
  removePasskey: 'removed a passkey of',
  linkSso: 'linked an organisation account to',
  requireTwoStep: 'changed “require two-step verification for staff” to',
} as const;

/** What a staff log entry may record: an operation's type or one of the others. */
export type LoggedAction = OpType | keyof typeof OTHER_STAFF_ACTIONS;

/** Every action the staff log may record. */
export const LOGGED_ACTIONS: readonly LoggedAction[] = [
  ...OPERATIONS.filter((definition) => definition.staff).map((definition) => definition.type),
  ...(Object.keys(OTHER_STAFF_ACTIONS) as (keyof typeof OTHER_STAFF_ACTIONS)[]),
];

const OPERATION_STAFF = new Map(
  OPERATIONS.flatMap((definition) => (definition.staff ? [[definition.type as string, definition.staff]] : [])),
);

/** The words of one entry after the actor's name ("acted on" for an action this version does not know: never its name). */
export function staffVerbOf(action: string, detail: StaffDetail | null): string {
  if (Object.hasOwn(OTHER_STAFF_ACTIONS, action)) return OTHER_STAFF_ACTIONS[action as keyof typeof OTHER_STAFF_ACTIONS];
  return OPERATION_STAFF.get(action)?.verb(detail ?? {}) ?? 'acted on';
}
