// Accounts people keep (issue 41): the wire shapes of the password, devices and email routes, the
// "Email me" choices, and how a session's browser and platform are named. Shared by the server and
// the app, so both read the same names.
import { z } from 'zod';
import { emailSchema, passwordSchema } from './protocol';

/** "Email me": Never, When I'm away (the default), Daily digest. */
export const EMAIL_PREFS = ['never', 'away', 'digest'] as const;
export type EmailPref = (typeof EMAIL_PREFS)[number];
export const EMAIL_PREF_LABELS: Record<EmailPref, string> = { never: 'Never', away: 'When I’m away', digest: 'Daily digest' };

/** A reset link lasts this long, and works once. */
export const RESET_LINK_MINUTES = 30;

const token = z
  .string()
  .trim()
  .min(20)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'This link is not valid.');

export const forgotPasswordSchema = z.object({ email: emailSchema });
export const resetPasswordSchema = z.object({ token, password: passwordSchema });
export const changePasswordSchema = z.object({ current: passwordSchema, password: passwordSchema });
export const tokenSchema = z.object({ token });
export const emailPrefSchema = z.object({ emailPref: z.enum(EMAIL_PREFS) });

/** GET /api/account: the member's address, whether it is confirmed, and their email setting. */
export const accountSchema = z.object({ email: z.string(), emailVerified: z.boolean(), emailPref: z.enum(EMAIL_PREFS) });
export type Account = z.infer<typeof accountSchema>;

/** One signed-in device on Profile. */
export const deviceSchema = z.object({
  id: z.string(),
  browser: z.string(),
  platform: z.string(),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  current: z.boolean(),
});
export type Device = z.infer<typeof deviceSchema>;
export const devicesSchema = z.object({ devices: z.array(deviceSchema) });

/** A reset link made by the admin for a member (Members tab): the URL, and whether it was emailed. */
export const resetLinkSchema = z.object({ url: z.string(), emailed: z.boolean() });

/** The answer of a route that only acknowledges: the sentence to show. */
export const doneSchema = z.object({ message: z.string() });

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
