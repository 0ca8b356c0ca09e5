// /api/passkeys (issue 63): a member adds, lists and removes passkeys (WebAuthn credentials), and
// anyone signs in with one. @simplewebauthn/server makes the options and checks every answer
// (challenge, origin, relying party, signature, counter); a challenge lives in auth_challenges
// (db/members/challenges.ts) under a random id carried by the `ie_webauthn` cookie (HttpOnly,
// SameSite=Strict, Path=/api/passkeys, five minutes), and is taken once, so a replayed answer fails.
//
// The relying party follows PUBLIC_ORIGIN: its first origin's hostname is the rpID, and an answer
// from any of its origins is accepted. Without PUBLIC_ORIGIN, the request's own origin (its Host,
// which the Host check has accepted) is both. Sign-in with a passkey needs no password and no code
// when the authenticator verified the user (the second factor); without that, a member with two-step
// verification on is asked for the code next, as after a password (lib/first-factor.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { describeUserAgent } from '../../../src/shared/account';
import { type passkeyListSchema, passkeyLoginSchema, passkeyRegisterSchema } from '../../../src/shared/passkeys';
import type { z } from 'zod';
import { MEMBER_ID_PATTERN } from '../../../src/shared/members';
import type { ServerContext } from '../../context';
import { findUserByMemberId, type UserRow } from '../../db/members/accounts';
import { CHALLENGE_LIFETIME_MS, putChallenge, takeChallenge, type ChallengeKind } from '../../db/members/challenges';
import { addPasskey, findPasskey, listedPasskey, listPasskeys, removePasskey, usePasskey } from '../../db/members/passkeys';
import { writeStaffEntry } from '../../db/staff/staff-log';
import { finishFirstFactor, openSession } from '../../lib/first-factor';
import { refuse } from '../../lib/http-error';
import { memberOf, stoppedBy } from '../../plugins/session';
import { ownOrigin } from '../../plugins/security';
import { checkLimits, clientKey, publicUser } from './session';

export const WEBAUTHN_COOKIE = 'ie_webauthn';
const COOKIE_PATH = '/api/passkeys';
const RP_NAME = 'Insight Exchange';

/** What a WebAuthn challenge row holds: the challenge the browser must sign. */
interface WebAuthnPending {
  challenge: string;
}

/** The relying party of this request: its rpID and the origins an answer may come from. */
function relyingParty(ctx: ServerContext, request: FastifyRequest): { id: string; origins: string[] } {
  const origins = ctx.publicOrigins.length > 0 ? [...ctx.publicOrigins] : [ownOrigin(request)];
  return { id: new URL(origins[0]!).hostname, origins };
}

/** A passkey's user handle: the member's public id (users.member_id), stable and unrelated to the email. */
const userHandleOf = (user: UserRow) => new TextEncoder().encode(user.memberId);

/** Stores `challenge` as a single-use challenge of `kind` and gives this browser its id. */
async function holdChallenge(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: ChallengeKind,
  challenge: string,
  userId: number | null,
) {
  const id = await putChallenge(ctx.db, kind, { challenge } satisfies WebAuthnPending, userId);
  reply.setCookie(WEBAUTHN_COOKIE, id, {
    httpOnly: true,
    sameSite: 'strict',
    path: COOKIE_PATH,
    secure: request.protocol === 'https',
    maxAge: CHALLENGE_LIFETIME_MS[kind] / 1000,
  });
}

/** Takes this browser's challenge of `kind` (once: the cookie goes too); undefined when there is none live. */
async function takeHeldChallenge(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, kind: ChallengeKind) {
  const taken = await takeChallenge<WebAuthnPending>(ctx.db, kind, request.cookies[WEBAUTHN_COOKIE]);
  reply.clearCookie(WEBAUTHN_COOKIE, { httpOnly: true, sameSite: 'strict', path: COOKIE_PATH, secure: request.protocol === 'https' });
  return taken;
}

/** A name a person recognises for a new passkey: the browser and platform ("Chrome on Linux"), or "Passkey" and the date. */
function defaultName(userAgent: string, now = Date.now()): string {
  const { browser, platform } = describeUserAgent(userAgent);
  if (browser !== 'Unknown browser') return `${browser} on ${platform}`;
  return `Passkey (${new Date(now).toISOString().slice(0, 10)})`;
}

/** Writes a staff account's passkey change in the staff log (inside the change's transaction). */
async function logForStaff(tx: Parameters<typeof writeStaffEntry>[0], user: UserRow, action: 'addPasskey' | 'removePasskey', name: string) {
  if (user.role === 'admin') await writeStaffEntry(tx, { actorId: user.id, action, memberId: user.id, title: name });
}

const asTransports = (transports: readonly string[]) => transports as NonNullable<WebAuthnCredential['transports']>;
const bytes = (base64url: string) => new Uint8Array(Buffer.from(base64url, 'base64url'));

/** Public: a passkey's sign-in (POST /api/passkeys/login/options, then POST /api/passkeys/login). */
export async function publicPasskeyRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  // Discoverable credentials: no list of allowed ones, so the browser offers the passkeys it holds
  // for this site, and the answer names its account through the user handle.
  app.post('/api/passkeys/login/options', async (request, reply) => {
    const options = await generateAuthenticationOptions({ rpID: relyingParty(ctx, request).id, userVerification: 'preferred' });
    await holdChallenge(ctx, request, reply, 'webauthn-login', options.challenge, null);
    return options;
  });

  app.post('/api/passkeys/login', { schema: { body: passkeyLoginSchema } }, async (request, reply) => {
    const response = (request.body as z.infer<typeof passkeyLoginSchema>).response as unknown as AuthenticationResponseJSON;
    const passkey = await findPasskey(ctx.db, response.id);
    const handle = response.response.userHandle ? Buffer.from(response.response.userHandle, 'base64url').toString('utf8') : '';
    const owner = MEMBER_ID_PATTERN.test(handle) ? await findUserByMemberId(ctx.db, handle) : undefined;
    // Counted before anything is checked, like a password: against the address, and against the
    // account's email from it when the passkey names one (forgotten again when it signs in).
    const pair = owner ? `${owner.email} ${clientKey(request.ip)}` : undefined;
    await checkLimits(ctx, request, pair);
    const pending = await takeHeldChallenge(ctx, request, reply, 'webauthn-login');
    // A credential of one account presented with another's user handle is nobody's here.
    if (!passkey || !owner || passkey.userId !== owner.id) throw refuse('passkey_unknown');
    if (!pending) throw refuse('passkey_failed');
    const relying = relyingParty(ctx, request);
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: pending.data.challenge,
        expectedOrigin: relying.origins,
        expectedRPID: relying.id,
        credential: {
          id: passkey.id,
          publicKey: bytes(passkey.publicKey),
          counter: passkey.counter,
          transports: asTransports(passkey.transports),
        },
        requireUserVerification: false,
      });
    } catch {
      throw refuse('passkey_failed');
    }
    if (!verified.verified) throw refuse('passkey_failed');
    // The right passkey of a member the staff stopped: told why, never signed in (as with a password).
    const stopped = stoppedBy(owner);
    if (stopped) throw stopped;
    // OIDC_ONLY: members sign in through the provider; the admin keeps every other way in.
    if (ctx.oidc?.only && owner.email !== ctx.adminEmail) throw refuse('sso_only');
    if (!(await usePasskey(ctx.db, passkey.id, passkey.counter, verified.authenticationInfo.newCounter))) throw refuse('passkey_failed');
    if (pair) await ctx.limits.perEmailAndAddress.clear(pair);
    // A verified user (PIN, biometric) makes the passkey both factors. Without it the passkey is
    // only something the member has: with two-step verification on, the code is asked as after a password.
    if (!verified.authenticationInfo.userVerified) {
      if ((await finishFirstFactor(ctx, request, reply, owner, { method: 'passkey' })) === 'two-step') return { twoStep: true };
    } else await openSession(ctx, request, reply, owner.id);
    return { user: publicUser(owner) };
  });
}

/** The member's own passkeys: add (options, then the answer), list, remove. */
export async function memberPasskeyRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get(
    '/api/passkeys',
    async (request) =>
      ({
        passkeys: (await listPasskeys(ctx.db, memberOf(request).id)).map(listedPasskey),
      }) satisfies z.infer<typeof passkeyListSchema>,
  );

  app.post('/api/passkeys/register/options', async (request, reply) => {
    const user = memberOf(request);
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: relyingParty(ctx, request).id,
      userID: userHandleOf(user),
      userName: user.email,
      userDisplayName: user.name,
      attestationType: 'none',
      // The authenticator refuses to make a second passkey for this account where it holds one.
      excludeCredentials: (await listPasskeys(ctx.db, user.id)).map(({ id, transports }) => ({ id, transports: asTransports(transports) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await holdChallenge(ctx, request, reply, 'webauthn-register', options.challenge, user.id);
    return options;
  });

  app.post('/api/passkeys/register', { schema: { body: passkeyRegisterSchema } }, async (request, reply) => {
    const user = memberOf(request);
    const body = request.body as z.infer<typeof passkeyRegisterSchema>;
    const pending = await takeHeldChallenge(ctx, request, reply, 'webauthn-register');
    // A challenge made for another member (a shared browser that changed hands) is no challenge.
    if (!pending || pending.userId !== user.id) throw refuse('passkey_failed');
    const relying = relyingParty(ctx, request);
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: body.response as unknown as RegistrationResponseJSON,
        expectedChallenge: pending.data.challenge,
        expectedOrigin: relying.origins,
        expectedRPID: relying.id,
        requireUserVerification: false,
      });
    } catch {
      throw refuse('passkey_failed');
    }
    if (!verified.verified) throw refuse('passkey_failed');
    const { credential } = verified.registrationInfo;
    const name = body.name || defaultName(request.headers['user-agent'] ?? '');
    const added = await ctx.db.transaction(async (tx) => {
      const row = await addPasskey(tx, {
        id: credential.id,
        userId: user.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name,
      });
      if (row) await logForStaff(tx, user, 'addPasskey', name);
      return row;
    });
    // Already stored, on this account or another: never moved or overwritten.
    if (!added) throw refuse('passkey_exists');
    return { passkey: listedPasskey(added) };
  });

  app.delete('/api/passkeys/:id', async (request, reply) => {
    const user = memberOf(request);
    const { id } = request.params as { id: string };
    const removed = await ctx.db.transaction(async (tx) => {
      const row = await removePasskey(tx, user.id, id);
      if (row) await logForStaff(tx, user, 'removePasskey', row.name);
      return row;
    });
    // Another member's passkey is as unknown as one that never was.
    if (!removed) throw refuse('passkey_not_found');
    return reply.code(204).send();
  });
}
