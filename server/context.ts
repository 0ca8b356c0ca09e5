// What the routes share: the database, the admin address, the sign-in and member limits and the change hub.
// Built once by app.ts and passed to each route plugin, so nothing hides in globals.
import type { FastifyRequest } from 'fastify';
import type { OidcConfig } from './config';
import type { UserRow } from './db/members/accounts';
import type { Database } from './db/storage/adapter';
import type { AttemptLimiter } from './lib/attempt-limiter';
import type { ChangeHub } from './lib/change-hub';
import type { StreamLimits } from './lib/live-streams';
import type { LimitSettings } from './lib/limits';
import type { Patient } from './lib/reachable';

export interface ServerContext {
  db: Database;
  adminEmail: string;
  limits: { perEmailAndAddress: AttemptLimiter; perAddress: AttemptLimiter };
  /** A member's limits (lib/limits.ts): the defaults with the admin's changes. */
  memberLimits: LimitSettings;
  hub: ChangeHub;
  /**
   * The runner of a request's steps on the database: tried again while PostgreSQL is away for a
   * moment, within one bound per request (lib/reachable.ts). Only for work safe to run twice.
   */
  patiently: (request: FastifyRequest) => Patient;
  /** Milliseconds between SSE heartbeat comments. */
  heartbeatMs: number;
  /** The live streams one session and this instance may hold open. */
  streamLimits: StreamLimits;
  version: string;
  /** The origin of links in emails: PUBLIC_ORIGIN's first, or the server's own address. */
  origin: () => string;
  /** PUBLIC_ORIGIN's origins (none: the server is reached at its own addresses); passkeys' relying party follows them. */
  publicOrigins: readonly string[];
  /** Single sign-on's settings (OIDC_*), when set. */
  oidc?: OidcConfig;
  /**
   * Checks of a signed-in member on each of their requests, after the session's (plugins/session.ts,
   * memberRoutes): the organisation's provider asked again once a period (lib/sso.ts, recheckProvider).
   */
  memberChecks?: ((ctx: ServerContext, request: FastifyRequest, member: UserRow) => Promise<void>)[];
}
