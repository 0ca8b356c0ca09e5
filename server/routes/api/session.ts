// /api/session: sign in (an unknown email creates the account), create an account with a name,
// who am I, and sign out. The admin address exists from start-up, so it can never be claimed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sessionRequestSchema, type SessionRequest } from '../../../src/shared/protocol';
import { nameFromEmail } from '../../../src/shared/post-rules';
import { createSession, createUser, deleteSession, findUser, type UserRow } from '../../db/accounts';
import type { ServerContext } from '../../context';
import { tooManyAttemptsMessage } from '../../lib/attempt-limiter';
import { HttpError } from '../../lib/http-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { clearSessionCookie, requireUser, SESSION_COOKIE, setSessionCookie } from '../../plugins/session';

const publicUser = ({ email, name, role }: UserRow) => ({ email, name, role });
const badCredentials = () => new HttpError(401, 'bad_credentials', 'Incorrect email or password.');

function checkLimits(ctx: ServerContext, request: FastifyRequest, email: string): void {
  const wait = Math.max(ctx.limits.perAddress.hit(request.ip), ctx.limits.perEmail.hit(email));
  if (wait > 0) {
    throw new HttpError(429, 'rate_limited', tooManyAttemptsMessage(wait), { 'retry-after': String(Math.ceil(wait / 1000)) });
  }
}

/** The account this request signs in to, created when the email is new (never the admin's). */
async function authenticate(ctx: ServerContext, body: SessionRequest): Promise<UserRow> {
  const known = await findUser(ctx.db, body.email);
  if (known) {
    if (body.mode === 'signup') {
      throw new HttpError(409, 'account_exists', 'An account with this email already exists. Sign in instead.');
    }
    if (!(await verifyPassword(body.password, known.passwordHash))) throw badCredentials();
    return known;
  }
  if (body.email === ctx.adminEmail) throw badCredentials();
  if (body.mode === 'signup' && !body.name) throw new HttpError(400, 'invalid', 'Please fill all fields.');
  const name = body.mode === 'signup' && body.name ? body.name : nameFromEmail(body.email);
  const created = await createUser(ctx.db, { email: body.email, name, role: 'user', passwordHash: await hashPassword(body.password) });
  // Someone created this account meanwhile: it is a known email now, with its own password.
  return created ?? authenticate(ctx, body);
}

export default async function sessionRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post('/api/session', { bodyLimit: 64 * 1024 }, async (request, reply) => {
    const body = sessionRequestSchema.parse(request.body);
    checkLimits(ctx, request, body.email);
    const user = await authenticate(ctx, body);
    setSessionCookie(request, reply, await createSession(ctx.db, user.id));
    return { user: publicUser(user) };
  });

  app.get('/api/session', async (request) => ({ user: publicUser(await requireUser(ctx.db, request)) }));

  app.delete('/api/session', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSession(ctx.db, token);
    clearSessionCookie(request, reply);
    return reply.code(204).send();
  });
}
