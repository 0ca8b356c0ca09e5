// Builds the Fastify instance (no port): plugins, the API routes and the built app's files.
// server.ts starts it; tests build it around their own database and inject requests.
import { refuse } from './lib/http-error';
import { LimitSettings, type Limits } from './lib/limits';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import type { Database } from './db/storage/adapter';
import type { ServerContext } from './context';
import type { OidcConfig } from './config';
import { attemptLimiter, type LimitRule } from './lib/attempt-limiter';
import { ChangeHub } from './lib/change-hub';
import { HostNames, type HostOptions } from './lib/host-names';
import type { StreamLimits } from './lib/live-streams';
import { capConnections, DEFAULT_CONNECTION_LIMITS, timeoutOptions, type ConnectionLimits } from './lib/connections';
import { clientErrorHandler, handleError, redactedLogger, setupErrors } from './plugins/errors';
import { RequestLog } from './plugins/request-log';
import { API_ONLY_CSP, cspFromHtml, setupSecurity } from './plugins/security';
import { memberRoutes, setupCookies } from './plugins/session';
import { setupProtocolCheck } from './plugins/protocol';
import { setupZodValidation } from './plugins/zod-validation';
import { readIndexHtml, setupStaticApp } from './plugins/static-app';
import eventsRoutes from './routes/api/events';
import { patientRequests } from './lib/reachable';
import healthRoutes from './routes/api/health';
import insightsRoutes from './routes/api/insights';
import membersRoutes from './routes/api/members';
import attachmentRoutes from './routes/api/attachments';
import pullRoutes from './routes/api/pull';
import pushRoutes from './routes/api/push';
import searchRoutes from './routes/api/search';
import postsRoutes from './routes/api/posts';
import sessionRoutes, { currentSessionRoute } from './routes/api/session';
import oidcRoutes from './routes/api/oidc';
import { recheckProvider } from './lib/sso';
import adminRoutes from './routes/api/admin';
import { securitySettingsRoutes, staffTwoStepGate, twoStepAccountRoutes, twoStepSignInRoutes } from './routes/api/two-step';
import { memberAccountRoutes, publicAccountRoutes } from './routes/api/account';
import { memberPasskeyRoutes, publicPasskeyRoutes } from './routes/api/passkeys';
import { MailWorker, type MailWorkerOptions } from './mail/outbox';
import { awayMessagesRound, awayRound, digestRound } from './mail/notify';

export interface AppOptions {
  db: Database;
  adminEmail: string;
  /** The built app to serve (dist/); without it only the API is served. */
  distDir?: string;
  logger?: FastifyServerOptions['logger'];
  https?: { cert: Buffer; key: Buffer };
  trustProxy?: false | number | string[];
  /** Wrong passwords per email from one address (default 10), and attempts per address (default 100), in 15 minutes. */
  limits?: { perEmailAndAddress?: LimitRule; perAddress?: LimitRule };
  heartbeatMs?: number;
  /** How long a request keeps trying to reach PostgreSQL before it answers 503 (default 10 s, lib/reachable.ts). */
  reachableWithinMs?: number;
  version?: string;
  /** HOST and PUBLIC_ORIGIN: the names the server answers to (lib/host-names.ts); default: loopback names. */
  hosts?: Omit<HostOptions, 'trustProxy'>;
  /** Live streams per session (default 10) and per instance (MAX_LIVE_STREAMS, default 10,000). */
  streams?: Partial<StreamLimits>;
  /**
   * A member's limits before the admin's changes (default DEFAULT_LIMITS, lib/limits.ts). In code
   * only, never from the environment: tests that are not about limits relax them.
   */
  memberLimits?: Limits;
  /**
   * Email: where messages leave (SMTP, or .eml files) and who sends them; with it, this instance runs
   * a worker on the queue. Without it (tests not about email) messages are queued and not sent.
   */
  mail?: Omit<MailWorkerOptions, 'log'>;
  /** How long a request may take to arrive, and the connections one client address holds (lib/connections.ts). */
  connections?: Partial<ConnectionLimits>;
  /** The origin of links in emails (PUBLIC_ORIGIN's first); default: the address the server listens on. */
  origin?: string | (() => string);
  /** Single sign-on through an OpenID Connect provider (config.ts, OIDC_*); unset: none. */
  oidc?: OidcConfig;
}

const FIFTEEN_MINUTES = 15 * 60 * 1000;

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** A ready-to-listen instance; closing it stops its LISTEN (the database stays open: the caller owns it). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const indexHtml = options.distDir ? readIndexHtml(options.distDir) : undefined;
  const csp = (indexHtml && cspFromHtml(indexHtml)) ?? API_ONLY_CSP;
  const connections: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
  const timeouts = timeoutOptions(connections);
  const app = Fastify({
    logger: redactedLogger(options.logger),
    // A hop count as proxy-addr reads it: the nearest `n` addresses are proxies, the next is the client.
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    // Each route that takes a body says how much (the push 1 MiB, a sign-in 64 KiB); nothing else more than this.
    bodyLimit: 64 * 1024,
    logController: new RequestLog(), // one log line per request, not two
    // A request must arrive whole in time (headers, then body), or it is cut off: 408 (lib/connections.ts).
    requestTimeout: connections.requestTimeoutMs,
    // No Host at all is answered by the Host check (421, as JSON) rather than node's empty 400.
    ...(options.https
      ? { https: { ...options.https, requireHostHeader: false, ...timeouts } }
      : { http: { requireHostHeader: false, ...timeouts } }),
    // Errors before any route (node's parser, a bad URL) answer `{ error: { code, message } }` too.
    clientErrorHandler,
    frameworkErrors: handleError,
  }) as unknown as FastifyInstance;
  const hub = new ChangeHub(options.db);
  await hub.start();
  const ctx: ServerContext = {
    db: options.db,
    adminEmail: options.adminEmail,
    hub,
    patiently: patientRequests(options.db, options.reachableWithinMs),
    heartbeatMs: options.heartbeatMs ?? 15_000,
    streamLimits: { perSession: options.streams?.perSession ?? 10, perInstance: options.streams?.perInstance ?? 10_000 },
    version: options.version ?? 'dev',
    limits: {
      perEmailAndAddress: attemptLimiter(
        options.db,
        'email-address',
        options.limits?.perEmailAndAddress ?? { max: 10, windowMs: FIFTEEN_MINUTES },
      ),
      perAddress: attemptLimiter(options.db, 'address', options.limits?.perAddress ?? { max: 100, windowMs: FIFTEEN_MINUTES }),
    },
    memberLimits: new LimitSettings(options.db, options.memberLimits),
    oidc: options.oidc,
    publicOrigins: options.hosts?.publicOrigins ?? [],
    memberChecks: [recheckProvider],
    origin: () => {
      if (typeof options.origin === 'function') return options.origin();
      if (options.origin) return options.origin;
      const address = app.server.address();
      const port = address && typeof address === 'object' ? address.port : 4173;
      return `${options.https ? 'https' : 'http'}://localhost:${port}`;
    },
  };
  app.addHook('onClose', async () => hub.close());
  capConnections(app, connections, Boolean(options.trustProxy), Boolean(options.https));
  setupErrors(app);
  setupZodValidation(app);
  await setupSecurity(app, csp, new HostNames({ ...options.hosts, trustProxy: Boolean(options.trustProxy) }));
  setupProtocolCheck(app);
  // No id in an API path holds a NUL character, and PostgreSQL refuses one in any query: a path
  // holding one (a passkey's, a member's id) is refused here, in words, before any route reads it.
  // A query string's text is each route's (a search takes a NUL as a space).
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?', 1)[0]!;
    if (path.startsWith('/api/') && /%00|\0/.test(path))
      throw refuse('invalid', 'This address holds a NUL character (%00), which no id has.');
  });
  // Every API answer is one member's, or the server's state now: no browser or shared cache keeps one
  // unless its route says otherwise (a file's is checked again at each use).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  await app.register(compress, { global: true });
  await setupCookies(app);
  for (const routes of [healthRoutes, sessionRoutes, publicAccountRoutes, oidcRoutes, twoStepSignInRoutes, publicPasskeyRoutes])
    await app.register(routes, ctx);
  // Issue 63: while the admin requires it, a staff account without two-step verification is kept out of /api/admin.
  app.addHook('preHandler', staffTwoStepGate(ctx));
  // Every other API route is a member's: one hook checks the session before any of them runs.
  await memberRoutes(app, ctx, [
    currentSessionRoute,
    pushRoutes,
    pullRoutes,
    eventsRoutes,
    insightsRoutes,
    searchRoutes,
    postsRoutes,
    membersRoutes,
    attachmentRoutes,
    adminRoutes,
    memberAccountRoutes,
    twoStepAccountRoutes,
    securitySettingsRoutes,
    memberPasskeyRoutes,
  ]);
  await setupStaticApp(app, options.distDir, indexHtml);
  if (options.mail) {
    const db = options.db;
    const worker = new MailWorker(db, {
      onTick: async () => {
        await awayRound(db, ctx.origin());
        await awayMessagesRound(db, ctx.origin());
        await digestRound(db, ctx.origin());
      },
      ...options.mail,
      log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) },
    });
    app.decorate('mailWorker', worker);
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
  }
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's email worker (when AppOptions.mail was given). */
    mailWorker?: MailWorker;
  }
}
