// Email through a crash: two server processes on one PostgreSQL, the SMTP server holding a message's
// DATA while the instance sending it is SIGKILLed. The killed sender never got its 250, so nothing
// was delivered; its claim runs out (MAIL_LEASE_MS) and the other instance sends the message: it
// arrives exactly once, and the queue marks it sent after two attempts.
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../support/client';
import { newPostgresDatabase } from '../support/databases';
import { HttpClient } from '../support/http';
import { processTestFiles, startServerProcess, stopServer, type ServerProcess } from '../support/process';
import { startSmtp, until, type TestSmtp } from '../support/smtp';

const { distDir } = processTestFiles();

describe('SIGKILL in the middle of sending an email', () => {
  let smtp: TestSmtp | undefined;
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) await stopServer(server, 'SIGKILL');
    await smtp?.close();
  });

  it('two instances on one PostgreSQL: the message arrives exactly once', async () => {
    smtp = await startSmtp();
    const databaseUrl = await newPostgresDatabase();
    const env = {
      DATABASE_URL: databaseUrl,
      DIST_DIR: distDir(),
      ADMIN_PASSWORD: 'admin-pw',
      LOG_LEVEL: 'warn',
      SMTP_URL: smtp.url,
      MAIL_LEASE_MS: '2000',
    };
    const first = await startServerProcess(env);
    servers.push(first);
    let release!: () => void;
    smtp.hold = new Promise<void>((resolve) => (release = resolve));
    const arriving = smtp.dataStarted();
    const member = new HttpClient(first.url);
    const made = await member.send('POST', '/api/session', {
      mode: 'signup',
      email: 'kill@example.com',
      password: TEST_PASSWORD,
      name: 'Kill Test',
    });
    expect(made.status).toBe(200);
    await arriving;
    expect(await stopServer(first, 'SIGKILL')).toBeNull();
    release();
    const second = await startServerProcess(env);
    servers.push(second);
    await until(() => smtp!.to('kill@example.com').length === 1, 20_000, 'the message sent by the other instance');
    const admin = new HttpClient(second.url);
    expect(
      (await admin.send('POST', '/api/session', { mode: 'signin', email: 'admin@insightexchange.app', password: 'admin-pw' })).status,
    ).toBe(200);
    // Sent once: marked sent by the instance that delivered it; nothing else is waiting.
    const { default: postgres } = await import('postgres');
    const sql = postgres(databaseUrl, { max: 1 });
    try {
      let rows: { attempts: number; sent: boolean }[] = [];
      const end = Date.now() + 10_000;
      while (Date.now() < end) {
        rows = (await sql`SELECT attempts, sent_at IS NOT NULL AS sent FROM mail_outbox WHERE to_email = 'kill@example.com'`) as never;
        if (rows[0]?.sent) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(rows).toEqual([{ attempts: 2, sent: true }]);
    } finally {
      await sql.end();
    }
    expect(smtp.to('kill@example.com')).toHaveLength(1);
  });
});
