// Two-step verification's constants (issue 63), without the schema library, so the screens that
// need them (Sign In's code step, Profile) load no zod; src/shared/sign-in.ts re-exports them.

/** Two-step verification (RFC 6238): what authenticator apps expect by default. */
export const TOTP = { digits: 6, period: 30, algorithm: 'SHA1', issuer: 'Insight Exchange' } as const;

/** How many recovery codes a member gets when two-step verification is turned on (each usable once). */
export const RECOVERY_CODE_COUNT = 10;

/** A code as typed is the authenticator app's: its digits, spaces aside. */
export const isAppCode = (typed: string): boolean => new RegExp(`^\\d{${TOTP.digits}}$`).test(typed.replace(/\s+/g, ''));
