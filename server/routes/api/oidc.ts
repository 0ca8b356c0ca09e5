// Single sign-on with the organisation's OpenID provider (issue 63), all public routes:
// GET /api/auth/methods (what /login offers), GET /api/oidc/start (to the provider, the browser bound
// to its sign-in by the `ie_oidc` cookie), GET /api/oidc/callback (back from it: checked, then signed
// in, or a first sign-in's name or an account's link held, or an error, always a redirect into the
// app), GET /api/oidc/pending and POST /api/oidc/finish (a first sign-in's name). Every answer a
// person reads is the vocabulary's sentence: the reason a provider's answer was refused goes to the log.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WireErrorCode } from '../../../src/shared/errors';
import { ssoFinishSchema, type AuthMethods, type SsoFinish, type SsoPending } from '../../../src/shared/sign-in';
import { validateMemberName } from '../../../src/shared/validation';
import type { ServerContext } from '../../context';
import { nameTaken } from '../../db/members/accounts';
import { CHALLENGE_LIFETIME_MS, peekChallenge, putChallenge, takeChallenge } from '../../db/members/challenges';
import { finishFirstFactor } from '../../lib/first-factor';
import { HttpError, refuse } from '../../lib/http-error';
import { ProviderUnavailable, relyingParty, type OidcFlow } from '../../lib/oidc';
import {
  applyGroups,
  clearPendingCookie,
  createMember,
  OIDC_COOKIE,
  OIDC_PENDING_COOKIE,
  providerSignIn,
  setFlowCookie,
  type PendingSso,
} from '../../lib/sso';
import { ownOrigin } from '../../plugins/security';
import { limitByAddress } from './account';
import { publicUser } from './session';

export const CALLBACK_PATH = '/api/oidc/callback';

/** The app path to come back to: a path of this app (never another origin, never the API); '/' otherwise. */
export function safeReturn(value: unknown): string {
  if (typeof value !== 'string' || value.length > 500) return '/';
  // No second slash or backslash (another host), no control character (a header's end).
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || [...value].some((char) => char < ' ')) return '/';
  const url = new URL(value, 'http://app.invalid');
  if (url.origin !== 'http://app.invalid' || url.pathname.startsWith('/api')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The redirect of a failed sign-in: /login says the code's sentence. */
const errorUrl = (code: WireErrorCode) => `/login?sso=error&code=${code}`;

/** What a route's failure redirects to (a refusal's own code; the provider unreachable; anything else: sso_failed, logged). */
function failure(request: FastifyRequest, error: unknown): string {
  if (error instanceof HttpError) return errorUrl(error.code);
  if (error instanceof ProviderUnavailable) {
    request.log.warn(`single sign-on: the provider is unreachable: ${error.message}`);
    return errorUrl('sso_unavailable');
  }
  request.log.warn(`single sign-on refused the provider's answer: ${reasonOf(error)}`);
  return errorUrl('sso_failed');
}

/** A refusal's reason for the log: openid-client's message, its cause's (which claim, which parameter), the provider's error code. */
function reasonOf(error: unknown): string {
  const { message, cause, error: code } = error as { message?: string; cause?: { message?: string }; error?: string };
  return [message, cause?.message, code].filter(Boolean).join(': ');
}

const redirect = (reply: FastifyReply, to: string) => reply.header('cache-control', 'no-store').redirect(to, 302);

export default async function oidcRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/auth/methods', async (): Promise<AuthMethods> => {
    return { sso: ctx.oidc ? { label: ctx.oidc.label } : null, ssoOnly: ctx.oidc?.only ?? false, passkeys: true };
  });

  app.get('/api/oidc/start', async (request, reply) => {
    try {
      if (!ctx.oidc) throw refuse('sso_not_configured');
      await limitByAddress(ctx, request);
      const returnTo = safeReturn((request.query as { return?: unknown }).return);
      // The redirect URI registered at the provider: PUBLIC_ORIGIN's first origin (as passkeys' relying
      // party), else the address this request came to.
      const origin = ctx.publicOrigins[0] ?? ownOrigin(request);
      // `confirm=1`: a confirmation (Profile's "Sign in again"), for which the provider authenticates the member anew.
      const reauthenticate = (request.query as { confirm?: unknown }).confirm === '1';
      const { url, flow } = await relyingParty(ctx.oidc).begin(`${origin}${CALLBACK_PATH}`, returnTo, reauthenticate);
      const id = await putChallenge(ctx.db, 'oidc', flow);
      // Lax: the provider's redirect back is a top-level navigation from another site.
      setFlowCookie(request, reply, OIDC_COOKIE, id, { path: '/api/oidc', sameSite: 'lax', maxAgeMs: CHALLENGE_LIFETIME_MS.oidc });
      return redirect(reply, url);
    } catch (error) {
      return redirect(reply, failure(request, error));
    }
  });

  app.get(CALLBACK_PATH, async (request, reply) => {
    const id = request.cookies[OIDC_COOKIE];
    reply.clearCookie(OIDC_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/api/oidc', secure: request.protocol === 'https' });
    try {
      if (!ctx.oidc) throw refuse('sso_not_configured');
      await limitByAddress(ctx, request);
      // Used once: a replayed state (or a callback in a browser that did not start the sign-in) finds nothing.
      const flow = (await takeChallenge<OidcFlow>(ctx.db, 'oidc', id))?.data;
      if (!flow) throw refuse('sso_failed');
      // The callback as the provider sent it, at the redirect URI the sign-in began with.
      const callback = new URL(flow.redirectUri);
      callback.search = new URL(request.url, 'http://callback.invalid').search;
      const { claims, refreshToken } = await relyingParty(ctx.oidc).finish(callback, flow);
      return redirect(reply, await providerSignIn(ctx, request, reply, claims, refreshToken, flow.returnTo));
    } catch (error) {
      return redirect(reply, failure(request, error));
    }
  });

  app.get('/api/oidc/pending', async (request, reply): Promise<SsoPending> => {
    const held = await peekChallenge<PendingSso>(ctx.db, 'oidc-pending', request.cookies[OIDC_PENDING_COOKIE]);
    if (!held) throw refuse('sso_failed');
    reply.header('cache-control', 'no-store');
    return { kind: held.data.kind, email: held.data.email, ...(held.data.suggestedName ? { suggestedName: held.data.suggestedName } : {}) };
  });

  app.post('/api/oidc/finish', { bodyLimit: 4 * 1024, schema: { body: ssoFinishSchema } }, async (request, reply) => {
    const { name } = request.body as SsoFinish;
    await limitByAddress(ctx, request);
    const id = request.cookies[OIDC_PENDING_COOKIE];
    const held = await peekChallenge<PendingSso>(ctx.db, 'oidc-pending', id);
    if (!held || held.data.kind !== 'name') throw refuse('sso_failed');
    const wrong = validateMemberName(name, 'user');
    if (wrong) throw refuse('invalid', wrong.message);
    if (await nameTaken(ctx.db, name)) throw refuse('name_taken');
    const pending = (await takeChallenge<PendingSso>(ctx.db, 'oidc-pending', id))?.data;
    if (!pending) throw refuse('sso_failed');
    const user = await createMember(ctx, pending, name);
    if (!user) {
      // Taken between the check and the insert: the member chooses again, with what they had.
      const again = await putChallenge(ctx.db, 'oidc-pending', pending);
      setFlowCookie(request, reply, OIDC_PENDING_COOKIE, again, {
        path: '/api',
        sameSite: 'strict',
        maxAgeMs: CHALLENGE_LIFETIME_MS['oidc-pending'],
      });
      throw refuse('name_taken');
    }
    clearPendingCookie(request, reply);
    await applyGroups(ctx, request, user, pending.groups);
    await finishFirstFactor(ctx, request, reply, user, { method: 'sso' });
    return { user: publicUser(user) };
  });
}
