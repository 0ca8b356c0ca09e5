// The real server process: SIGTERM closes cleanly and the data is there after a restart, SIGKILL
// loses nothing acknowledged, https with a self-signed certificate (Secure cookie), and a clear
// message with exit code 1 when the database cannot be opened (missing, not a folder, read-only, a
// full disk, PostgreSQL unreachable).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDiskFullError } from '../../server/db/storage/pglite';
import { createOp, likeOp, reviewOp, TEST_PASSWORD } from './support/client';
import { ADMIN_EMAIL, BACKENDS, newPostgresDatabase, type Backend } from './support/databases';
import { HttpClient } from './support/http';
import { signUpThroughMailFolder } from './support/mail-folder';
import { adminPasswordScript, failedStart, processTestFiles, startServerProcess, stopServer } from './support/process';

const { tempDir, distDir } = processTestFiles();

async function databaseEnv(backend: Backend): Promise<Record<string, string>> {
  return backend === 'postgres' ? { DATABASE_URL: await newPostgresDatabase() } : { DATA_DIR: tempDir('ie-data-') };
}

describe.each(BACKENDS)('the server process on %s', (backend) => {
  it('SIGTERM closes cleanly (exit 0), admin:password changes the password, the data is there after a restart', async () => {
    const env = { ...(await databaseEnv(backend)), DIST_DIR: distDir(), ADMIN_PASSWORD: 'admin-pw' };
    const first = await startServerProcess(env);
    const member = new HttpClient(first.url);
    expect(
      (
        await signUpThroughMailFolder(member.send.bind(member), (env as Record<string, string | undefined>).DATA_DIR ?? 'data', {
          email: 'keeper@example.com',
          password: TEST_PASSWORD,
          name: 'Keeper',
        })
      ).status,
    ).toBe(200);
    const pushed = await member.send('POST', '/api/ops', { ops: [createOp('Kept across restarts')] });
    const postId = pushed.body.results[0].postId as number;
    expect(await stopServer(first, 'SIGTERM')).toBe(0);
    expect(first.output()).toMatch(/SIGTERM: finishing requests in flight/);

    const changed = execFileSync(process.execPath, [adminPasswordScript()], {
      env: { ...process.env, ...env, ADMIN_PASSWORD: 'new-admin-pw' },
    });
    expect(changed.toString()).toMatch(/now the one in ADMIN_PASSWORD/);

    const second = await startServerProcess(env);
    member.baseUrl = second.url;
    try {
      const pulled = await member.send('GET', '/api/changes?after=0');
      expect(pulled.body.posts.map((post: { id: number }) => post.id)).toContain(postId);
      expect(pulled.body.posts).toHaveLength(4); // the three sample posts, created once, and ours
      const admin = new HttpClient(second.url);
      expect((await admin.send('POST', '/api/session', { mode: 'signin', email: ADMIN_EMAIL, password: 'admin-pw' })).status).toBe(401);
      expect((await admin.send('POST', '/api/session', { mode: 'signin', email: ADMIN_EMAIL, password: 'new-admin-pw' })).status).toBe(200);
    } finally {
      expect(await stopServer(second, 'SIGTERM')).toBe(0);
    }
  });

  it('SIGKILL loses nothing the server had acknowledged', async () => {
    const env = { ...(await databaseEnv(backend)), DIST_DIR: distDir(), ADMIN_PASSWORD: 'admin-pw' };
    const first = await startServerProcess(env);
    const admin = new HttpClient(first.url);
    await admin.send('POST', '/api/session', { mode: 'signin', email: ADMIN_EMAIL, password: 'admin-pw' });
    const created: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      const answer = await admin.send('POST', '/api/ops', { ops: [createOp(`Acknowledged ${index}`)] });
      created.push(answer.body.results[0].postId);
    }
    await admin.send('POST', '/api/ops', { ops: [reviewOp(created[0]!)] });
    const likes = await Promise.all(Array.from({ length: 40 }, () => admin.send('POST', '/api/ops', { ops: [likeOp(created[0]!)] })));
    const acknowledged = likes.filter((answer) => answer.body?.results?.[0]?.status === 'applied').length;
    expect(acknowledged).toBe(40);
    await stopServer(first, 'SIGKILL');

    const second = await startServerProcess(env);
    admin.baseUrl = second.url;
    try {
      const pulled = await admin.send('GET', '/api/changes?after=0');
      const ids = pulled.body.posts.map((post: { id: number }) => post.id);
      for (const id of created) expect(ids).toContain(id);
      expect(pulled.body.posts.find((post: { id: number }) => post.id === created[0]).likes).toBe(40);
    } finally {
      await stopServer(second, 'SIGTERM');
    }
  });
});

describe('https with TLS_CERT and TLS_KEY', () => {
  it('serves https with a self-signed certificate and sets a Secure session cookie', async () => {
    const dir = tempDir('ie-tls-');
    const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    const dataDir = tempDir('ie-data-');
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      DIST_DIR: distDir(),
      TLS_CERT: cert,
      TLS_KEY: key,
      ADMIN_PASSWORD: 'x',
    });
    try {
      expect(server.url).toMatch(/^https:/);
      const client = new HttpClient(server.url, readFileSync(cert));
      expect((await client.send('GET', '/api/health')).body).toMatchObject({ ok: true, database: 'pglite' });
      const signIn = await signUpThroughMailFolder(client.send.bind(client), dataDir, {
        email: 'phone@example.com',
        password: TEST_PASSWORD,
        name: 'Phone',
      });
      expect(signIn.status).toBe(200);
      expect(String(signIn.headers['set-cookie'])).toMatch(/ie_session=.*; Secure/);
      expect((await client.send('GET', '/forum')).headers['strict-transport-security']).toMatch(/max-age=/);
    } finally {
      expect(await stopServer(server, 'SIGTERM')).toBe(0);
    }
  });
});

describe('a database that cannot be opened', () => {
  // Root writes anywhere: as root the server runs without the capabilities that override file
  // permissions (setpriv, part of Debian's essential util-linux), so a 555 folder is read-only to
  // it, while it can still reach this checkout wherever it lies (a su to another user could not).
  const withoutOverride =
    process.getuid?.() === 0
      ? (command: string[]) => ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', '--', ...command]
      : undefined;

  it('stops with exit code 1 and a clear message', async () => {
    const file = join(tempDir('ie-file-'), 'not-a-folder');
    writeFileSync(file, 'x');
    const readOnly = tempDir('ie-ro-');
    execFileSync('chmod', ['555', readOnly]);
    const cases: [Record<string, string>, RegExp, typeof withoutOverride][] = [
      [{ DATA_DIR: join(tmpdir(), 'ie-missing-folder-xyz') }, /DATA_DIR .* does not exist/, undefined],
      [{ DATA_DIR: file }, /is not a folder/, undefined],
      [{ DATA_DIR: readOnly }, /is not writable/, withoutOverride],
      // A full disk, made deterministic: ask for more free space than any disk here has.
      [
        { DATA_DIR: tempDir('ie-full-'), MIN_FREE_MB: '999999999' },
        /The disk holding DATA_DIR .* is full \(\d+ MB free, MIN_FREE_MB asks for 999999999 MB\)/,
        undefined,
      ],
      [{ DATA_DIR: tempDir('ie-full-'), MIN_FREE_MB: 'lots' }, /MIN_FREE_MB must be a number of megabytes, not "lots"/, undefined],
      [{ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' }, /PostgreSQL at 127\.0\.0\.1:1\/nothing cannot be reached/, undefined],
      [{ DATABASE_URL: 'mysql://somewhere' }, /DATABASE_URL must start with postgres:\/\//, undefined],
    ];
    for (const [env, message, wrap] of cases) {
      const result = await failedStart({ ...env, DIST_DIR: distDir(), PATH: `${join(process.execPath, '..')}:${process.env.PATH}` }, wrap);
      expect(result.output).toMatch(message);
      expect(result.output).toMatch(/Insight Exchange server cannot start/);
      expect(result.code).toBe(1);
    }
  });

  it('recognises a full disk met while the database opens (ENOSPC) as the same case', () => {
    expect(isDiskFullError(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toBe(true);
    expect(isDiskFullError(new Error('could not extend file "base/5/16384": No space left on device'))).toBe(true);
    expect(isDiskFullError(new Error('permission denied'))).toBe(false);
  });
});
