// The wire schemas of the account routes (issue 41), for the server and the connected app's client.
import { z } from 'zod';
import { emailSchema, passwordSchema, sessionUserSchema } from './protocol';
import { EMAIL_PREFS, type Account, type Device } from './account';
import { LIMITS } from './post-rules';

const token = z
  .string()
  .trim()
  .min(20)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'This link is not valid.');

/**
 * How a sign-up's link token begins (issue 59): its page asks for the password chosen at Create
 * Account before it sends anything, where an address's or a Change email's link is used on opening.
 */
export const SIGN_UP_TOKEN_PREFIX = 'signup-';
export const isSignUpToken = (token: string): boolean => token.startsWith(SIGN_UP_TOKEN_PREFIX);

export const forgotPasswordSchema = z.object({ email: emailSchema });
export const resetPasswordSchema = z.object({ token, password: passwordSchema });
export const changePasswordSchema = z.object({ current: passwordSchema, password: passwordSchema });
export const tokenSchema = z.object({ token });
/**
 * A confirmation link; a sign-up's needs the `password` chosen at Create Account, and one whose name
 * was taken meanwhile comes back with another `name`.
 */
export const confirmEmailSchema = z.object({
  token,
  name: z.string().trim().max(200).optional(),
  password: z.string().max(LIMITS.password).optional(),
});
/** What a confirmation link answers: the sentence, and the member it signed in (a sign-up's link). */
export const confirmedSchema = z.object({ message: z.string(), user: sessionUserSchema.optional() });
export const emailPrefSchema = z.object({ emailPref: z.enum(EMAIL_PREFS) });

export const accountSchema: z.ZodType<Account> = z.object({
  email: z.string(),
  emailVerified: z.boolean(),
  emailPref: z.enum(EMAIL_PREFS),
  hasPassword: z.boolean().optional(),
  recentSignIn: z.boolean().optional(),
});

export const deviceSchema: z.ZodType<Device> = z.object({
  id: z.string(),
  browser: z.string(),
  platform: z.string(),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  current: z.boolean(),
});
export const devicesSchema = z.object({ devices: z.array(deviceSchema) });

/** A reset link made by the admin for a member (Members tab): the URL, and whether it was emailed. */
export const resetLinkSchema = z.object({ url: z.string(), emailed: z.boolean() });

/** The answer of a route that only acknowledges: the sentence to show. */
export const doneSchema = z.object({ message: z.string() });

/** Change email (issue 59): the new address, and the current password (the account's owner asks). */
export const changeEmailSchema = z.object({ email: emailSchema, password: passwordSchema });
/**
 * Delete my account: the password again, and whether what they wrote stays as "Deleted member". An
 * account without a password (made by the organisation's sign-in, issue 63) sends none: a sign-in on
 * this browser within RECENT_SIGN_IN_MINUTES confirms it instead.
 */
export const deleteAccountSchema = z.object({ password: passwordSchema.optional(), keepContent: z.boolean() });
