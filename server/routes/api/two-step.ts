// Two-step verification (issue 63). Without a session: POST /api/session/two-step, the code (or a
// recovery code) after a right first factor, which takes the `ie_two_step` cookie's challenge
// (lib/first-factor.ts) and opens the session. A member's: GET /api/account/two-step (on, recovery
// codes left, required), POST /api/account/two-step/setup (a new key, its URI and QR code), /enable
// {code} (on, ten recovery codes shown once), /disable and /recovery-codes (each with a code or a
// recovery code). An admin's: GET / PUT /api/admin/security { requireTwoStepForStaff }; while it is
// on, a staff account without two-step verification is refused the rest of /api/admin and the staff
// operations (`staffTwoStepGate`, and db/ops/apply.ts). Every code counts against the sign-in limits,
// and a staff account's changes are written to the staff log in their own transaction.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { z } from 'zod';
import { twoStepRequestSchema, type TwoStepRequest } from '../../../src/shared/sign-in';
import { securitySettingsSchema, twoStepEnableSchema, type SecuritySettings, type TwoStepStatus } from '../../../src/shared/two-step';
import type { ServerContext } from '../../context';
import { findUserById, type UserRow } from '../../db/members/accounts';
import { peekChallenge, takeChallenge } from '../../db/members/challenges';
import {
  disableTwoStep,
  enableTwoStep,
  newRecoveryCodes,
  recoveryCodesLeft,
  setTwoStepRequiredForStaff,
  setupSecret,
  startSetup,
  stepOf,
  twoStepRequiredForStaff,
  useCode,
} from '../../db/members/two-step';
import { writeStaffEntry } from '../../db/staff/staff-log';
import type { Sql } from '../../db/storage/adapter';
import { TWO_STEP_COOKIE, type TwoStepPending } from '../../lib/first-factor';
import { refuse } from '../../lib/http-error';
import { linkPendingSso } from '../../lib/sso';
import { memberOf, stoppedBy } from '../../plugins/session';
import { limitByAddress } from './account';
import { clientKey, openSession, publicUser } from './session';

/** The sentence for an admin who would require of staff what their own account lacks. */
export const REQUIRE_OWN_FIRST_MESSAGE = 'Turn on two-step verification for your own account first (Profile), then require it for staff.';

/** The limits' key of one account's codes from one address (a right code forgets it). */
const codeKey = (userId: number, request: FastifyRequest) => `two-step ${userId} ${clientKey(request.ip)}`;

/** The wrong code's refusal for what was given. */
const wrongCode = (given: TwoStepRequest) => refuse('recoveryCode' in given ? 'bad_recovery_code' : 'bad_code');

/** The staff log's entry for a staff account's own security change (written in the change's transaction). */
async function logOwnChange(tx: Sql, user: UserRow, action: 'turnOnTwoStep' | 'turnOffTwoStep' | 'newRecoveryCodes'): Promise<void> {
  if (user.role === 'admin') await writeStaffEntry(tx, { actorId: user.id, action, memberId: user.id });
}

/** The admin's setting applies to `user`: a staff account, while it is on. */
const requiredOf = async (sql: Sql, user: UserRow) => user.role === 'admin' && (await twoStepRequiredForStaff(sql));

/**
 * Checks and uses a code of `user` (who has two-step verification on) from this request's address,
 * counted against the sign-in limits before it is checked (parallel guesses are held too): 429 when
 * spent, bad_code / bad_recovery_code when wrong.
 */
async function checkCode(ctx: ServerContext, request: FastifyRequest, user: UserRow, given: TwoStepRequest): Promise<void> {
  await limitByAddress(ctx, request, codeKey(user.id, request));
  if (!(await useCode(ctx.db, user.id, given))) throw wrongCode(given);
  await ctx.limits.perEmailAndAddress.clear(codeKey(user.id, request));
}

const clearTwoStepCookie = (request: FastifyRequest, reply: FastifyReply) =>
  reply.clearCookie(TWO_STEP_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/api/session', secure: request.protocol === 'https' });

/** POST /api/session/two-step (no session yet). */
export async function twoStepSignInRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post('/api/session/two-step', { bodyLimit: 4 * 1024, schema: { body: twoStepRequestSchema } }, async (request, reply) => {
    const given = request.body as TwoStepRequest;
    const id = request.cookies[TWO_STEP_COOKIE];
    // Peeked, not taken: a mistyped code can be tried again, within the limits and the five minutes.
    const pending = await peekChallenge<TwoStepPending>(ctx.db, 'two-step', id);
    const user = pending?.userId ? await findUserById(ctx.db, pending.userId) : undefined;
    // Turned off meanwhile (from another device): the first factor is asked for again.
    if (!pending || !user?.totpEnabledAt) {
      clearTwoStepCookie(request, reply);
      throw refuse('two_step_expired');
    }
    const stopped = stoppedBy(user);
    if (stopped) throw stopped;
    await checkCode(ctx, request, user, given);
    // Taken now: of two right codes sent at once with one cookie, one signs in.
    if (!(await takeChallenge(ctx.db, 'two-step', id))) throw refuse('two_step_expired');
    clearTwoStepCookie(request, reply);
    await openSession(ctx, request, reply, user.id);
    // After a password: the organisation's account this browser came back with is linked now (as POST /api/session does).
    const ssoLinked = pending.data.method === 'password' && (await linkPendingSso(ctx, request, reply, user));
    return { user: publicUser(user), ...(ssoLinked ? { ssoLinked } : {}) };
  });
}

/** The member's own two-step verification (Profile). */
export async function twoStepAccountRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/account/two-step', async (request, reply): Promise<TwoStepStatus> => {
    const user = memberOf(request);
    reply.header('cache-control', 'no-store');
    return {
      on: Boolean(user.totpEnabledAt),
      recoveryCodesLeft: user.totpEnabledAt ? await recoveryCodesLeft(ctx.db, user.id) : 0,
      required: await requiredOf(ctx.db, user),
    };
  });

  app.post('/api/account/two-step/setup', async (request, reply) => {
    const user = memberOf(request);
    if (user.totpEnabledAt) throw refuse('two_step_on');
    const { key, uri } = await startSetup(ctx.db, user.id, user.email);
    reply.header('cache-control', 'no-store');
    // An SVG data URL, shown as an <img> (the CSP's img-src allows data:), so the page loads no QR code library.
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { key, uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  });

  app.post('/api/account/two-step/enable', { bodyLimit: 1024, schema: { body: twoStepEnableSchema } }, async (request) => {
    const user = memberOf(request);
    const { code } = request.body as z.infer<typeof twoStepEnableSchema>;
    if (user.totpEnabledAt) throw refuse('two_step_on');
    await limitByAddress(ctx, request, codeKey(user.id, request));
    const secret = await setupSecret(ctx.db, user.id);
    // No setup (or one older than its fifteen minutes): "Set up" again.
    if (!secret) throw refuse('two_step_expired', 'The setup expired. Press “Set up” again and scan the new code.');
    const step = stepOf(secret, code);
    if (step === undefined) throw refuse('bad_code');
    const recoveryCodes = await ctx.db.transaction(async (tx) => {
      const codes = await enableTwoStep(tx, user.id, secret, step);
      if (!codes) throw refuse('two_step_on');
      await logOwnChange(tx, user, 'turnOnTwoStep');
      return codes;
    });
    await ctx.limits.perEmailAndAddress.clear(codeKey(user.id, request));
    return { recoveryCodes };
  });

  app.post('/api/account/two-step/disable', { bodyLimit: 1024, schema: { body: twoStepRequestSchema } }, async (request, reply) => {
    const user = memberOf(request);
    if (!user.totpEnabledAt) throw refuse('two_step_off');
    await checkCode(ctx, request, user, request.body as TwoStepRequest);
    await ctx.db.transaction(async (tx) => {
      await disableTwoStep(tx, user.id);
      await logOwnChange(tx, user, 'turnOffTwoStep');
    });
    return reply.code(204).send();
  });

  app.post('/api/account/two-step/recovery-codes', { bodyLimit: 1024, schema: { body: twoStepRequestSchema } }, async (request) => {
    const user = memberOf(request);
    if (!user.totpEnabledAt) throw refuse('two_step_off');
    await checkCode(ctx, request, user, request.body as TwoStepRequest);
    const recoveryCodes = await ctx.db.transaction(async (tx) => {
      await logOwnChange(tx, user, 'newRecoveryCodes');
      return newRecoveryCodes(tx, user.id);
    });
    return { recoveryCodes };
  });
}

/** The admin's "Require two-step verification for staff" (outside the gate: it is what an admin needs to set it up). */
export async function securitySettingsRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  const adminOf = (request: FastifyRequest) => {
    const user = memberOf(request);
    if (user.role !== 'admin') throw refuse('admins_only');
    return user;
  };

  app.get('/api/admin/security', async (request, reply): Promise<SecuritySettings> => {
    adminOf(request);
    reply.header('cache-control', 'no-store');
    return { requireTwoStepForStaff: await twoStepRequiredForStaff(ctx.db) };
  });

  app.put(
    '/api/admin/security',
    { bodyLimit: 1024, schema: { body: securitySettingsSchema } },
    async (request): Promise<SecuritySettings> => {
      const admin = adminOf(request);
      const { requireTwoStepForStaff } = request.body as SecuritySettings;
      // An admin cannot require what would lock their own account out of the staff's work.
      if (requireTwoStepForStaff && !admin.totpEnabledAt) throw refuse('two_step_required', REQUIRE_OWN_FIRST_MESSAGE);
      await ctx.db.transaction(async (tx) => {
        await setTwoStepRequiredForStaff(tx, requireTwoStepForStaff);
        await writeStaffEntry(tx, { actorId: admin.id, action: 'requireTwoStep', title: requireTwoStepForStaff ? 'on' : 'off' });
      });
      return { requireTwoStepForStaff };
    },
  );
}

/** The routes under /api/admin a staff account without two-step verification still reaches while it is required. */
const OPEN_TO_STAFF_WITHOUT = new Set(['/api/admin/security']);

/**
 * The hook (app.ts, before the member routes) that refuses the rest of /api/admin with
 * two_step_required to a staff account without two-step verification while the admin requires it.
 */
export function staffTwoStepGate(ctx: ServerContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const user = request.member;
    const url = request.routeOptions.url ?? '';
    if (!user || user.role !== 'admin' || user.totpEnabledAt || !url.startsWith('/api/admin/') || OPEN_TO_STAFF_WITHOUT.has(url)) return;
    if (await twoStepRequiredForStaff(ctx.db)) throw refuse('two_step_required');
  };
}
