// `npm run backup` and `npm run restore` (issue 43) on both engines, with the real server process:
// a backup made while the server runs and a member likes a post in a loop, restored into an empty
// DATA_DIR or a fresh PostgreSQL database, gives back every post, reply, poll vote and attachment
// (its bytes), the likes acknowledged before it began and no more than those acknowledged by its
// end; backup.json says what it holds. Refusals in words: a folder already used, a backup inside
// DATA_DIR, a restore over data, a folder that is no backup, a backup of the other engine.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../src/shared/protocol';
import { createOp, likeOp, replyOp, reviewOp, TEST_PASSWORD, voteOp } from './support/client';
import { ADMIN_EMAIL, BACKENDS, newPostgresDatabase, type Backend } from './support/databases';
import { HttpClient } from './support/http';
import { signUpThroughMailFolder } from './support/mail-folder';
import { backupScript, processTestFiles, startServerProcess, stopServer } from './support/process';

const { tempDir, distDir } = processTestFiles();

/** Runs the built tool (never blocking this thread: the server and the likes run meanwhile). */
function tool(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [backupScript(), ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/**
 * A text file: stored as sent, so its address and its bytes read back are the same (an image is
 * rewritten without its metadata by the server since issue 59).
 */
const notes = Buffer.from('Backup test notes: every file comes back.\n');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Pulled {
  posts: { id: number; title: string; status: string; likes: number; attachments?: { sha256: string }[] }[];
  replies: { id: string; postId: number; content: string }[];
}

/** Everything `client` may see, pulled page by page. */
async function pullAll(client: HttpClient): Promise<Pulled> {
  const all: Pulled = { posts: [], replies: [] };
  for (let after = 0; ;) {
    const url = new URL(`/api/changes?after=${after}&limit=1000`, client.baseUrl);
    const response = await fetch(url, { headers: { cookie: client.cookie ?? '', [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) } });
    const page = (await response.json()) as Pulled & { cursor: number; more: boolean };
    all.posts.push(...page.posts);
    all.replies.push(...(page.replies ?? []));
    if (!page.more) return all;
    after = page.cursor;
  }
}

const fetchFile = (client: HttpClient, address: string) =>
  fetch(new URL(`/api/attachments/${address}`, client.baseUrl), { headers: { cookie: client.cookie ?? '' } });

async function databaseEnv(backend: Backend): Promise<Record<string, string>> {
  return backend === 'postgres' ? { DATABASE_URL: await newPostgresDatabase() } : { DATA_DIR: tempDir('ie-backup-data-') };
}

describe.each(BACKENDS)('backup and restore on %s', (backend) => {
  it('a backup made while members write restores into an empty database with every post, reply, vote and file', async () => {
    const env: Record<string, string> = { ...(await databaseEnv(backend)), DIST_DIR: distDir(), ADMIN_PASSWORD: 'admin-pw' };
    const server = await startServerProcess(env);
    const admin = new HttpClient(server.url);
    const member = new HttpClient(server.url);
    let liking = true;
    try {
      await admin.send('POST', '/api/session', { mode: 'signin', email: ADMIN_EMAIL, password: 'admin-pw' });
      const joined = await signUpThroughMailFolder(member.send.bind(member), env.DATA_DIR ?? 'data', {
        email: 'keeper@example.com',
        password: TEST_PASSWORD,
        name: 'Keeper',
      });
      expect(joined.status).toBe(200);
      const uploaded = await fetch(new URL(`/api/attachments/${sha(notes)}`, server.url), {
        method: 'PUT',
        headers: { cookie: member.cookie!, origin: server.url, 'content-type': 'application/octet-stream', 'x-file-name': 'notes.txt' },
        body: notes,
      });
      expect(uploaded.status).toBe(200);
      const created = await member.send('POST', '/api/ops', {
        ops: [
          createOp('Panel quality, wave 3', {
            attachments: [{ sha256: sha(notes), name: 'notes.txt' }],
            poll: { question: 'Which panel?', options: ['A', 'B'], multiple: false, closesAt: null },
          }),
        ],
      });
      const postId = created.body.results[0].postId as number;
      expect((await admin.send('POST', '/api/ops', { ops: [reviewOp(postId)] })).body.results[0].status).toBe('applied');
      for (const text of ['First reply.', 'Second reply.', 'Third reply.'])
        expect((await admin.send('POST', '/api/ops', { ops: [replyOp(postId, text)] })).body.results[0].status).toBe('applied');
      expect((await admin.send('POST', '/api/ops', { ops: [voteOp(postId, [1])] })).body.results[0].status).toBe('applied');
      await admin.send('POST', '/api/ops', { ops: [createOp('Still pending')] });
      const before = await pullAll(admin);

      // The admin likes the post in a loop (admins have no like limit) while the backup is made.
      let acknowledged = 0;
      const likes = (async () => {
        while (liking) {
          const answer = await admin.send('POST', '/api/ops', { ops: [likeOp(postId)] });
          if (answer.body?.results?.[0]?.status === 'applied') acknowledged += 1;
        }
      })();
      while (acknowledged < 5) await admin.send('GET', '/api/health');
      const likedBefore = acknowledged;
      const folder = join(tempDir('ie-backups-'), 'nightly');
      const made = await tool(['backup', folder], env);
      const likedAfter = acknowledged;
      expect(made.output).toMatch(/^Backed up .* to .*nightly in [\d.]+ s\.$/mu);
      expect(made.code).toBe(0);
      liking = false;
      await likes;
      expect(acknowledged).toBeGreaterThan(likedBefore);

      // backup.json says what it holds.
      const manifest = JSON.parse(readFileSync(join(folder, 'backup.json'), 'utf8'));
      expect(manifest).toMatchObject({ kind: 'insight-exchange-backup', format: 1, engine: backend });
      expect(manifest.holds).toMatchObject({
        posts: {
          approved: before.posts.filter((post) => post.status === 'approved').length,
          pending: 1,
          rejected: 0,
        },
        replies: before.replies.length,
        pollVotes: 1,
        attachments: { files: 1, bytes: notes.length },
      });
      expect(made.output).toContain(`${manifest.holds.members} members`);

      // Refused in words, nothing touched: the same folder again; for PGlite, a folder inside DATA_DIR.
      const again = await tool(['backup', folder], env);
      expect(again).toMatchObject({ code: 1 });
      expect(again.output).toMatch(/Cannot back up: .*nightly already holds files: choose a new or empty folder\./u);
      if (backend === 'pglite') {
        const inside = await tool(['backup', join(env.DATA_DIR!, 'copy')], env);
        expect(inside.output).toMatch(/The backup cannot go inside DATA_DIR/u);
      }
      await stopServer(server, 'SIGTERM');

      // Restored into an empty database of the same engine.
      const target: Record<string, string> =
        backend === 'postgres' ? { DATABASE_URL: await newPostgresDatabase() } : { DATA_DIR: join(tempDir('ie-restored-'), 'data') };
      const wrongEngine = await tool(
        ['restore', folder],
        backend === 'postgres' ? { DATA_DIR: join(tempDir('ie-x-'), 'data') } : { DATABASE_URL: await newPostgresDatabase() },
      );
      expect(wrongEngine.code).toBe(1);
      expect(wrongEngine.output).toMatch(/This backup is of (the embedded database|a PostgreSQL database)/u);
      const notABackup = await tool(['restore', tempDir('ie-empty-')], target);
      expect(notABackup.output).toMatch(/is not a backup made by npm run backup: it has no backup\.json\./u);
      const restored = await tool(['restore', folder], { ...target });
      expect(restored.output).toMatch(/^Restored .* into .*: \d+ members, /mu);
      expect(restored.code).toBe(0);
      const over = await tool(['restore', folder], target);
      expect(over.code).toBe(1);
      expect(over.output).toMatch(/already holds files|is not empty: restore into a new one/u);

      const second = await startServerProcess({ ...target, DIST_DIR: distDir(), ADMIN_PASSWORD: 'other' });
      try {
        admin.baseUrl = second.url;
        member.baseUrl = second.url;
        const after = await pullAll(admin);
        const shape = (pulled: Pulled) => ({
          posts: pulled.posts.map(({ id, title, status }) => ({ id, title, status })).sort((a, b) => a.id - b.id),
          replies: pulled.replies.map(({ id, content }) => ({ id, content })).sort((a, b) => a.id.localeCompare(b.id)),
        });
        expect(shape(after)).toEqual(shape(before));
        const liked = after.posts.find((post) => post.id === postId)!;
        expect(liked.likes).toBeGreaterThanOrEqual(likedBefore);
        expect(liked.likes).toBeLessThanOrEqual(likedAfter + 1);
        expect(liked.attachments?.map((file) => file.sha256)).toEqual([sha(notes)]);
        // The sessions came back with the data: the member's file downloads, byte for byte.
        const file = await fetchFile(member, sha(notes));
        expect(file.status).toBe(200);
        expect(sha(new Uint8Array(await file.arrayBuffer()))).toBe(sha(notes));
        const poll = (await pullAll(member)).posts.find((post) => post.id === postId) as unknown as { poll: { counts: number[] } };
        expect(poll.poll.counts).toEqual([0, 1]);
      } finally {
        expect(await stopServer(second, 'SIGTERM')).toBe(0);
      }
    } finally {
      liking = false;
      if (server.child.exitCode === null) await stopServer(server, 'SIGTERM');
    }
  }, 180_000); // two server processes, a backup and a restore: about 50 s here alone, 60 s was too little beside other files on 2 cores
});
