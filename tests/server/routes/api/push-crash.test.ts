// The server SIGKILLed in the middle of pushes: members keep liking one post, each like its own
// push; the server is killed while pushes are in flight and restarted on the same data. Each client
// follows the app's retry rule (an unanswered push is sent again later with the same op id), and
// every like is counted exactly once: the final count equals the likes made.
import { describe, expect, it } from 'vitest';
import { createOp, likeOp, reviewOp, TEST_PASSWORD } from '../../support/client';
import { ADMIN_EMAIL, BACKENDS, newPostgresDatabase } from '../../support/databases';
import { HttpClient } from '../../support/http';
import { signUpThroughMailFolder } from '../../support/mail-folder';
import { relaxServerLimits } from '../../support/limits';
import { noPushes, pushUntilAnswered } from '../../support/outbox';
import { processTestFiles, startServerProcess, stopServer, type ServerProcess } from '../../support/process';

const CLIENTS = 8;
const LIKES_EACH = 25;
/** The kill comes once this many likes were acknowledged: pushes are in flight on every client. */
const KILL_AFTER = 60;

const { tempDir, distDir } = processTestFiles();

describe.each(BACKENDS)('SIGKILL in the middle of pushes on %s', (backend) => {
  it('every like is counted exactly once after the clients retry the same operations', async () => {
    const dataDir = tempDir('ie-crash-push-');
    const env = {
      ...(backend === 'postgres' ? { DATABASE_URL: await newPostgresDatabase() } : { DATA_DIR: dataDir }),
      DIST_DIR: distDir(),
      ADMIN_PASSWORD: 'admin-pw',
      LOG_LEVEL: 'warn',
    };
    let server: ServerProcess = await startServerProcess(env);
    const admin = new HttpClient(server.url);
    await admin.send('POST', '/api/session', { mode: 'signin', email: ADMIN_EMAIL, password: 'admin-pw' });
    await relaxServerLimits(admin);
    const postId = (await admin.send('POST', '/api/ops', { ops: [createOp('Liked through a crash')] })).body.results[0].postId as number;
    expect((await admin.send('POST', '/api/ops', { ops: [reviewOp(postId)] })).body.results[0].status).toBe('applied');
    const members = Array.from({ length: CLIENTS }, () => new HttpClient(server.url));
    for (const [index, member] of members.entries()) {
      expect(
        (
          await signUpThroughMailFolder(member.send.bind(member), (env as Record<string, string | undefined>).DATA_DIR ?? 'data', {
            email: `crash${index}@example.com`,
            password: TEST_PASSWORD,
            name: `Crash ${index}`,
          })
        ).status,
      ).toBe(200);
    }

    // The server's life cycle as the clients see it: `back` resolves once the restarted server listens.
    let acknowledged = 0;
    let killed!: () => void;
    const killTime = new Promise<void>((resolve) => (killed = resolve));
    let markBack!: () => void;
    const back = new Promise<void>((resolve) => (markBack = resolve));
    const outcome = noPushes();

    const push = async (member: HttpClient) => {
      // Made once; every retry resends this same id. The app backs off and retries; here, the retry
      // waits until the server is back.
      await pushUntilAnswered(member, likeOp(postId), outcome, async () => {
        await back;
        member.baseUrl = server.url;
      });
      acknowledged += 1;
      if (acknowledged === KILL_AFTER) killed();
    };
    const clients = members.map(async (member) => {
      for (let like = 0; like < LIKES_EACH; like += 1) await push(member);
    });

    await killTime;
    await stopServer(server, 'SIGKILL');
    server = await startServerProcess(env);
    markBack();
    try {
      await Promise.all(clients);
      admin.baseUrl = server.url;
      const posts = (await admin.send('GET', '/api/changes?after=0')).body.posts as { id: number; likes: number }[];
      expect(outcome.unanswered).toBeGreaterThan(0); // the kill did cut pushes in flight
      expect(outcome.applied + outcome.duplicate).toBe(CLIENTS * LIKES_EACH);
      expect(posts.find((post) => post.id === postId)?.likes).toBe(CLIENTS * LIKES_EACH);
    } finally {
      await stopServer(server, 'SIGTERM');
    }
  }, 180_000);
});
