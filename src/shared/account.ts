// Accounts people keep (issue 41): the "Email me" choices, the shapes of an account and a signed-in
// device, and how a session's browser and platform are named. Shared by the server and the app; no
// schema library here, so Profile can import it on a local-only device (zod's check for eval would
// break the Content-Security-Policy there): the wire schemas are in account-schemas.ts.

/** "Email me": Never, When I'm away (the default), Daily digest. */
export const EMAIL_PREFS = ['never', 'away', 'digest'] as const;
export type EmailPref = (typeof EMAIL_PREFS)[number];
export const EMAIL_PREF_LABELS: Record<EmailPref, string> = { never: 'Never', away: 'When I’m away', digest: 'Daily digest' };

/**
 * Why the admin has no Change email (issue 59): the server keeps an admin at the address it is
 * started with (ADMIN_EMAIL), so an admin moved elsewhere would be followed by a second one.
 */
export const ADMIN_EMAIL_FIXED_MESSAGE =
  'The admin account’s email is the one the server is set up with (ADMIN_EMAIL): it cannot be changed here.';

/** A reset link lasts this long, and works once. */
export const RESET_LINK_MINUTES = 30;

/** GET /api/account: the member's address, whether it is confirmed, and their email setting. */
export interface Account {
  email: string;
  emailVerified: boolean;
  emailPref: EmailPref;
  /**
   * Issue 63: false for an account made by the organisation's sign-in, which has no password: its
   * email is the organisation's (not changed here) and Delete my account needs a recent sign-in instead.
   * Absent from an older server: a password account.
   */
  hasPassword?: boolean;
  /** Issue 63: this browser signed in less than RECENT_SIGN_IN_MINUTES ago (a fresh confirmation). */
  recentSignIn?: boolean;
}

/** How recent a sign-in confirms Delete my account for an account without a password (issue 63). */
export const RECENT_SIGN_IN_MINUTES = 10;

/** One signed-in device on Profile. */
export interface Device {
  id: string;
  browser: string;
  platform: string;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const PLATFORMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** The browser and platform a User-Agent names, in words ("Chrome", "Android"); "Unknown" when it names none. */
export function describeUserAgent(userAgent: string): { browser: string; platform: string } {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Unknown browser';
  const platform = PLATFORMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Unknown platform';
  return { browser, platform };
}
