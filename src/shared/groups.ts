// Groups (issue 61, item 1): admins gather members into named groups (a panel vendors' group, a
// client's insight team). A group's name is unique by the key member names are compared by (names.ts:
// case, width, look-alike letters and invisible characters ignored) and may not hold the staff's words;
// its description is a few lines. Shared by the operations (ops/groups.ts), the forms and the server.
import { hasInvisible, isReservedName, nameKey } from './names';
import { blank, hiddenText, problem, tooLong, unstorableText, type Problem } from './text-checks';

export const GROUP_LIMITS = {
  /** A group's name: as long as a member's name. */
  name: 100,
  description: 500,
} as const;

/** A group as every device that may see it holds it. */
export interface Group {
  /** A UUID, made by the admin's device (the createGroup op names it). */
  id: string;
  name: string;
  description: string;
  createdAt: number;
  updatedAt: number;
}

/** The key two groups' names are compared by (two groups never share one). */
export const groupNameKey = (name: string): string => nameKey(name);

/** A group's name: not blank, within GROUP_LIMITS.name, storable, without hidden characters or the staff's words. */
export function validateGroupName(name: string): Problem | null {
  if (blank(name)) return problem('Missing Information', 'Give the group a name.');
  const wrong = tooLong('Group name', name.trim(), GROUP_LIMITS.name) ?? unstorableText('Group name', name);
  if (wrong) return wrong;
  if (hasInvisible(name.trim())) {
    return problem(
      'Group name cannot be used',
      'Group name holds an invisible or direction-changing character (often from a paste). Type the name without it.',
    );
  }
  if (isReservedName(name)) return problem('Group name cannot be used', 'This name is kept for the forum’s staff. Choose another one.');
  return null;
}

/** A group's description (optional): within GROUP_LIMITS.description, storable, without hidden characters. */
export function validateGroupDescription(description: string): Problem | null {
  return (
    tooLong('Description', description.trim(), GROUP_LIMITS.description) ??
    unstorableText('Description', description) ??
    hiddenText('Description', description, 'lines')
  );
}

/** What the refusal of a group name another group holds says. */
export const GROUP_NAME_TAKEN = { title: 'Name taken', message: 'Another group already has this name. Choose another one.' };
/** What the refusal of an operation on a group nobody has says. */
export const GROUP_NOT_FOUND = { title: 'Group removed', message: 'This group no longer exists.' };
