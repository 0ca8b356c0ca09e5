// The ways of signing in a connected server offers (issue 63), as GET /api/auth/methods answers and
// /login shows them: single sign-on through the organisation's provider (with its button's words),
// whether members may use a password at all, and passkeys. Local-only mode has passwords only.
import { z } from 'zod';
import { LIMITS } from './post-rules';

/** GET /api/auth/methods (public): what /login offers besides (or instead of) the password. */
export const authMethodsSchema = z.object({
  /** Single sign-on, when OIDC_* is set: the words after "Sign in with" (OIDC_LABEL). */
  sso: z.object({ label: z.string() }).nullable(),
  /** OIDC_ONLY=1: members sign in only through the provider (the admin's password still works). */
  ssoOnly: z.boolean(),
  /** Passkeys can sign in here (a connected server always offers them). */
  passkeys: z.boolean(),
});
export type AuthMethods = z.infer<typeof authMethodsSchema>;

// The single sign-on button's words live in a file without zod, for /login (issue 64, item 2).
export { ssoButtonWords } from './sign-in-words';

// Two-step verification's constants live in a file without zod, for the screens.
export { RECOVERY_CODE_COUNT, TOTP } from './two-step-rules';

/** POST /api/session/two-step: the code from the authenticator app, or one recovery code. */
export const twoStepRequestSchema = z.union([
  z
    .object({
      code: z
        .string()
        .trim()
        .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'),
    })
    .strict(),
  z.object({ recoveryCode: z.string().trim().min(1).max(40) }).strict(),
]);
export type TwoStepRequest = z.infer<typeof twoStepRequestSchema>;

/**
 * GET /api/oidc/pending: what a sign-in through the provider waits for. `name`: a first sign-in whose
 * name is taken (or not one a member may have), with a free one offered; `link`: an account with this
 * email exists, and its password, once, links it.
 */
export const ssoPendingSchema = z.object({
  kind: z.enum(['name', 'link']),
  email: z.string(),
  suggestedName: z.string().optional(),
});
export type SsoPending = z.infer<typeof ssoPendingSchema>;

/** POST /api/oidc/finish: a first sign-in's name (the name rules apply: validateMemberName). */
export const ssoFinishSchema = z.object({ name: z.string().trim().min(1).max(LIMITS.name) }).strict();
export type SsoFinish = z.infer<typeof ssoFinishSchema>;
