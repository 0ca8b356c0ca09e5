// The admin's operations on a member (the Members tab; connected mode): suspend until a time with a
// reason, lift a suspension, silence or unsilence, delete a spammer. Each is an operation like any
// other: queued in the outbox (sent when online), applied by the server, which alone knows every
// member; a spammer's posts and replies leave this device at once.

import { runOperation } from '../ops/run-later';

/** Suspends the member `memberId` until `until` (ms since the epoch) for `reason`. */
export async function suspendMember(memberId: string, until: number, reason: string): Promise<void> {
  await runOperation('suspendMember', { memberId, until, reason });
}

/** Ends the member's suspension now (their sessions stay ended: they sign in again). */
export async function liftSuspension(memberId: string): Promise<void> {
  await runOperation('suspendMember', { memberId, until: null });
}

/**
 * Silences the member (they read, but write nothing) for `reason`, until `until` (ms; null: until
 * lifted), or (`silenced` false) lets them write again.
 */
export async function silenceMember(memberId: string, silenced: boolean, reason?: string, until: number | null = null): Promise<void> {
  await runOperation('silenceMember', silenced ? { memberId, silenced, reason: reason ?? '', until } : { memberId, silenced });
}

/** Deletes every post and reply of the member and closes their account. */
export async function deleteSpammer(memberId: string): Promise<void> {
  await runOperation('deleteSpammer', { memberId });
}
