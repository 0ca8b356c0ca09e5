// Builds the Fastify instance (no port): plugins, the API routes and the built app's files.
// server.ts starts it; tests build it around their own database and inject requests.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import type { Database } from './db/adapter';
import type { ServerContext } from './context';
import { AttemptLimiter, type LimitRule } from './lib/attempt-limiter';
import { ChangeHub } from './lib/change-hub';
import { setupErrors } from './plugins/errors';
import { RequestLog } from './plugins/request-log';
import { API_ONLY_CSP, cspFromHtml, setupSecurity } from './plugins/security';
import { setupCookies } from './plugins/session';
import { readIndexHtml, setupStaticApp } from './plugins/static-app';
import eventsRoutes from './routes/api/events';
import healthRoutes from './routes/api/health';
import opsRoutes from './routes/api/ops';
import sessionRoutes from './routes/api/session';

export interface AppOptions {
  db: Database;
  adminEmail: string;
  /** The built app to serve (dist/); without it only the API is served. */
  distDir?: string;
  logger?: FastifyServerOptions['logger'];
  https?: { cert: Buffer; key: Buffer };
  trustProxy?: boolean;
  limits?: { perEmail?: LimitRule; perAddress?: LimitRule };
  heartbeatMs?: number;
  version?: string;
}

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** A ready-to-listen instance; closing it stops its LISTEN (the database stays open: the caller owns it). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const indexHtml = options.distDir ? readIndexHtml(options.distDir) : undefined;
  const csp = (indexHtml && cspFromHtml(indexHtml)) ?? API_ONLY_CSP;
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    logController: new RequestLog(), // one log line per request, not two
    ...(options.https ? { https: options.https } : {}),
  }) as unknown as FastifyInstance;
  const hub = new ChangeHub(options.db);
  await hub.start();
  const ctx: ServerContext = {
    db: options.db,
    adminEmail: options.adminEmail,
    hub,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    version: options.version ?? 'dev',
    limits: {
      perEmail: new AttemptLimiter(options.limits?.perEmail ?? { max: 10, windowMs: FIFTEEN_MINUTES }),
      perAddress: new AttemptLimiter(options.limits?.perAddress ?? { max: 100, windowMs: FIFTEEN_MINUTES }),
    },
  };
  app.addHook('onClose', async () => hub.close());
  setupErrors(app);
  await setupSecurity(app, csp);
  await app.register(compress, { global: true });
  await setupCookies(app);
  for (const routes of [healthRoutes, sessionRoutes, opsRoutes, eventsRoutes]) await app.register(routes, ctx);
  await setupStaticApp(app, options.distDir, indexHtml);
  return app;
}
