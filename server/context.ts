// What the routes share: the database, the admin address, the sign-in limits and the change hub.
// Built once by app.ts and passed to each route plugin, so nothing hides in globals.
import type { Database } from './db/adapter';
import type { AttemptLimiter } from './lib/attempt-limiter';
import type { ChangeHub } from './lib/change-hub';

export interface ServerContext {
  db: Database;
  adminEmail: string;
  limits: { perEmail: AttemptLimiter; perAddress: AttemptLimiter };
  hub: ChangeHub;
  /** Milliseconds between SSE heartbeat comments. */
  heartbeatMs: number;
  version: string;
}
