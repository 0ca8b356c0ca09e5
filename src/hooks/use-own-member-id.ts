import { useLiveQuery } from 'dexie-react-hooks';
import { ownMemberId } from '../db/members/own-id';

/** The signed-in member's public id (their page), live: the server's once a sign-in named it, else memberId of the email. */
export function useOwnMemberId(email: string): string | undefined {
  return useLiveQuery(() => ownMemberId(email), [email]);
}
