// Starts the server: reads the environment, opens the database (a clear message and exit 1 when
// it cannot), runs start-up work, listens (https with TLS_CERT/TLS_KEY), and on SIGTERM or SIGINT
// finishes requests in flight, closes the database cleanly and exits 0. The log is readable lines
// on a terminal and JSON lines otherwise (LOG_FORMAT forces either: lib/log-format.ts).
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, readConfig } from './config';
import { SCRYPT_COST, scryptCostLowered, STANDARD_SCRYPT_COST } from './lib/passwords';
import type { Database } from './db/storage/adapter';
import { DatabaseOpenError } from './db/storage/adapter';
import { openDatabase } from './db/storage/open';
import { isLostConnection } from './db/storage/postgres';
import { isDiskFullError } from './db/storage/pglite';
import { builtCreation } from './db/storage/ready-made';
import { startUp } from './db/storage/startup';
import { chooseLogFormat, passwordBlock, prettyStream } from './lib/log-format';
import { BUILD_ID } from './version';
import { join } from 'node:path';
import { fileTransport, smtpTransport } from './mail/transport';
import { serveBackups } from './backup/control';

function fail(message: string): never {
  console.error(`Insight Exchange server cannot start: ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  const config = readConfig();
  const pretty = chooseLogFormat(process.env, process.stdout.isTTY === true) === 'pretty';
  const color = pretty && process.stdout.isTTY === true && !process.env.NO_COLOR;
  // Built beside this file (dist-server/): a first start unpacks the ready-made empty database, or
  // creates it in a child process that exits (db/pglite.ts). Run from source, it is created here.
  const db: Database = await openDatabase(config, builtCreation(import.meta.url));
  // A connection to PostgreSQL refused in the client's background work is logged, not a crash
  // (isLostConnection says why); any other unhandled rejection still ends the process.
  let warn = (message: string) => console.warn(message);
  process.on('unhandledRejection', (reason) => {
    if (config.databaseUrl && isLostConnection(reason)) return warn(`database connection refused: ${(reason as Error).message}`);
    throw reason;
  });
  const report = await startUp(db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword, log: console.log });
  const mailTransport = config.smtpUrl ? smtpTransport(config.smtpUrl) : fileTransport(join(config.dataDir, 'mail'));
  let listening = '';
  // The server's own address for links in emails when PUBLIC_ORIGIN is unset (a loopback HOST reads as localhost).
  const ownOrigin = () => {
    const url = new URL(listening || `http://localhost:${config.port}`);
    if (['127.0.0.1', '[::1]', '0.0.0.0', '[::]'].includes(url.hostname)) url.hostname = 'localhost';
    return url.origin;
  };
  let app: FastifyInstance;
  try {
    app = await buildApp({
      db,
      adminEmail: config.adminEmail,
      distDir: config.distDir,
      logger: { level: process.env.LOG_LEVEL ?? 'info', ...(pretty ? { stream: prettyStream(process.stdout, color) } : {}) },
      https: config.https,
      trustProxy: config.trustProxy,
      version: BUILD_ID,
      hosts: { listenHost: config.host, publicOrigins: config.publicOrigins },
      streams: { perInstance: config.maxLiveStreams },
      connections: config.connections,
      mail: { transport: mailTransport, from: config.mailFrom, ...(config.mailLeaseMs ? { leaseMs: config.mailLeaseMs } : {}) },
      origin: () => config.publicOrigins[0] ?? ownOrigin(),
      oidc: config.oidc,
    });
  } catch (error) {
    await db.close();
    throw error;
  }
  warn = (message) => app.log.warn(message);
  if (report.migrations > 0) app.log.info(`database: ${report.migrations} migration(s) applied`);
  if (report.seeded) app.log.info('database: the three sample posts were created');
  if (scryptCostLowered())
    app.log.warn(
      `PASSWORD_SCRYPT_N=${SCRYPT_COST.N} lowers the cost of password hashes below ${STANDARD_SCRYPT_COST.N}: for test runs only`,
    );
  if (report.generatedPassword) {
    // The password itself goes only to the framed block (stdout, whatever LOG_FORMAT), never into a log entry.
    app.log.warn(`The admin account ${config.adminEmail} was created with a generated password, shown once in the framed block.`);
    console.log(passwordBlock('The admin account was created with a generated password.', config.adminEmail, report.generatedPassword));
  }
  // npm run backup asks this server for a consistent copy of the embedded database (backup/control.ts).
  const stopBackups = db.kind === 'pglite' ? await serveBackups(db, config.dataDir, (message) => app.log.warn(message)) : undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: finishing requests in flight, then closing the database`);
    await stopBackups?.();
    await app.close();
    try {
      await db.close();
    } catch (error) {
      app.log.error(`closing the database: ${(error as Error).message}`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  const address = await app.listen({ port: config.port, host: config.host });
  listening = address;
  app.log.info(`email: ${mailTransport.describe}${config.smtpUrl ? '' : ' (set SMTP_URL to send through an SMTP server)'}`);
  // Always printed (whatever LOG_LEVEL): people, tests and the benchmark read the address here.
  console.log(
    `Insight Exchange listening at ${address} (${db.kind === 'postgres' ? 'PostgreSQL from DATABASE_URL' : `embedded PGlite in ${config.dataDir}`})`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseOpenError) fail(error.message);
  if (isDiskFullError(error)) fail('The disk holding the database is full: free some space, or point DATA_DIR at another disk.');
  fail(error instanceof Error ? error.message : String(error));
});
