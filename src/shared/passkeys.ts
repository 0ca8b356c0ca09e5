// Passkeys (issue 63, WebAuthn): what the server's /api/passkeys routes take and answer, shared by
// the server and the app. The browser's registration and assertion answers are passed through as
// @simplewebauthn/browser made them; the server's library checks every field, so these schemas only
// bound their size and shape.
import { z } from 'zod';

/** The longest name a member may give a passkey. */
export const PASSKEY_NAME_MAX = 60;

/** One passkey of the member, as Profile lists it. */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** GET /api/passkeys. */
export const passkeyListSchema = z.object({ passkeys: z.array(passkeySchema) });

/** Bytes as WebAuthn's JSON carries them: base64url, no padding. */
const base64url = () => z.string().regex(/^[A-Za-z0-9_-]*$/, 'Not base64url.');

/** A WebAuthn answer (RegistrationResponseJSON or AuthenticationResponseJSON): its id and inner response bounded. */
const credentialSchema = z.looseObject({
  id: base64url().min(1).max(1400),
  rawId: base64url().min(1).max(1400),
  type: z.literal('public-key'),
  response: z.record(z.string(), z.unknown()),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().max(40).optional(),
});

/** POST /api/passkeys/register: the browser's answer to the options, and a name for the passkey (optional). */
export const passkeyRegisterSchema = z.object({
  response: credentialSchema,
  name: z.string().trim().max(PASSKEY_NAME_MAX).optional(),
});

/** POST /api/passkeys/login: the browser's answer to the options. */
export const passkeyLoginSchema = z.object({
  // The user handle names the account: base64url of its member id, when the authenticator gives one.
  response: credentialSchema.extend({ response: z.looseObject({ userHandle: base64url().max(200).nullish() }) }),
});
