import { useId } from 'react';
import type { PrivateAudience } from '../hooks/use-categories';

/** "A, B or C" (one name alone as it is). */
const either = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;

/**
 * Who can see a post of a private category, as a sentence: the groups this device holds by name, the
 * others as "other groups" (a member's device holds only their own groups: it never names another).
 */
export function privateDescription({ names, others }: PrivateAudience): string {
  if (names.length === 0) return 'Only members of the groups chosen for its category can see this post.';
  return `Only members of ${either(others ? [...names, 'other groups'] : names)} can see this post.`;
}

/** The "Private" badge of a post in a private category (issue 61); its accessible description names the groups that can see it. */
export function PrivateBadge({ audience }: { audience: PrivateAudience }) {
  const id = useId();
  return (
    <>
      <span className="badge text-bg-secondary app-private-badge" aria-describedby={id}>
        Private
      </span>
      <span id={id} hidden>
        {privateDescription(audience)}
      </span>
    </>
  );
}
