// What the built server prints at its first start: readable lines with LOG_FORMAT=pretty (what a
// terminal gets), JSON lines by default when stdout is not a terminal, and in both the generated
// admin password in a framed block of its own lines, which signs in. `npm run admin:password`
// prints a generated one the same way.
import { execFileSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN_EMAIL } from './support/databases';
import { HttpClient } from './support/http';
import { adminPasswordScript, processTestFiles, startServerProcess, stopServer, type ServerProcess } from './support/process';

const { tempDir, distDir } = processTestFiles();

const PASSWORD_LINE = /^\| {3}password: {2}(\S+) +\|$/m;
const TIME = String.raw`\d\d:\d\d:\d\d\.\d{3}`;

/** A first start (a new PGlite folder, no ADMIN_PASSWORD): the server and the generated password. */
async function firstStart(env: Record<string, string>): Promise<{ server: ServerProcess; password: string; dataDir: string }> {
  const dataDir = tempDir('ie-data-');
  const server = await startServerProcess({ DATA_DIR: dataDir, DIST_DIR: distDir(), ADMIN_PASSWORD: '', NO_COLOR: '1', ...env });
  const password = PASSWORD_LINE.exec(server.output())?.[1];
  if (!password) throw new Error(`no password block in:\n${server.output()}`);
  return { server, password, dataDir };
}

/** The block around the password: a frame, the email and how to change it, each on its own line. */
function expectPasswordBlock(output: string, password: string): void {
  const lines = output.split('\n');
  const at = lines.findIndex((line) => line.includes(password));
  expect(at).toBeGreaterThan(0);
  const top = lines.slice(0, at).findLastIndex((line) => /^\+-+\+$/.test(line));
  const bottom = at + lines.slice(at).findIndex((line) => /^\+-+\+$/.test(line));
  expect(top).toBeGreaterThanOrEqual(0);
  expect(bottom).toBeGreaterThan(at);
  expect(lines[top - 1]).toBe('');
  expect(lines[bottom + 1]).toBe('');
  const block = lines.slice(top, bottom + 1);
  expect(block.join('\n')).toMatch(new RegExp(String.raw`^\| {3}email: {5}${ADMIN_EMAIL.replace(/\./g, '\\.')} +\|$`, 'm'));
  expect(block.join('\n')).toContain("ADMIN_PASSWORD='a new long password' npm run admin:password");
  // Shown once: nowhere else in the output, in no log entry.
  expect(output.split(password)).toHaveLength(2);
}

async function signsIn(url: string, password: string): Promise<number> {
  return (await new HttpClient(url).send('POST', '/api/session', { mode: 'signin', email: ADMIN_EMAIL, password })).status;
}

describe('the server process log', () => {
  it('with LOG_FORMAT=pretty: readable lines, one per request, and the generated password in its own block', async () => {
    const { server, password } = await firstStart({ LOG_FORMAT: 'pretty' });
    try {
      expectPasswordBlock(server.output(), password);
      expect(await signsIn(server.url, password)).toBe(200);
      expect((await new HttpClient(server.url).send('GET', '/api/health?probe=1')).status).toBe(200);
      const request = new RegExp(String.raw`^${TIME} INFO  req-\S+ GET /api/health 200 [\d.]+ ms$`, 'm');
      await vi.waitFor(() => expect(server.output()).toMatch(request), { timeout: 10_000, interval: 50 });
      const output = server.output();
      expect(output).toMatch(new RegExp(String.raw`^${TIME} INFO  database: \d+ migration\(s\) applied$`, 'm'));
      expect(output).toMatch(
        new RegExp(
          String.raw`^${TIME} WARN  The admin account ${ADMIN_EMAIL} was created with a generated password, shown once in the framed block\.$`,
          'm',
        ),
      );
      expect(output).toMatch(new RegExp(String.raw`^${TIME} INFO  req-\S+ POST /api/session 200 [\d.]+ ms$`, 'm'));
      expect(output.match(/GET \/api\/health/g)).toHaveLength(1);
      expect(output).not.toContain('probe=1');
      expect(output).not.toMatch(/^\{/m);
    } finally {
      await stopServer(server, 'SIGTERM');
    }
  });

  it('by default when stdout is not a terminal: JSON lines, one per request; the password block as well; admin:password prints its own', async () => {
    const { server, password, dataDir } = await firstStart({});
    try {
      expectPasswordBlock(server.output(), password);
      expect((await new HttpClient(server.url).send('GET', '/api/health')).status).toBe(200);
      const entries = () =>
        server
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      await vi.waitFor(() => expect(entries().filter((entry) => entry.url === '/api/health')).toHaveLength(1), {
        timeout: 10_000,
        interval: 50,
      });
      const health = entries().find((entry) => entry.url === '/api/health')!;
      expect(health).toMatchObject({ level: 30, msg: 'request completed', method: 'GET', statusCode: 200 });
      expect(entries().filter((entry) => entry.reqId === health.reqId)).toHaveLength(1);
      expect(entries()).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: `The admin account ${ADMIN_EMAIL} was created with a generated password, shown once in the framed block.`,
        }),
      );
      // Every other line is the block, a blank line around it, or the address line.
      const plain = server
        .output()
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('{') && !line.startsWith('|') && !line.startsWith('+'));
      expect(plain).toEqual([expect.stringMatching(/^Insight Exchange listening at /)]);
    } finally {
      expect(await stopServer(server, 'SIGTERM')).toBe(0);
    }

    const changed = execFileSync(process.execPath, [adminPasswordScript()], {
      env: { ...process.env, DATA_DIR: dataDir, ADMIN_PASSWORD: '' },
    }).toString();
    const generated = PASSWORD_LINE.exec(changed)?.[1];
    expect(generated).toMatch(/^[\w-]{24}$/);
    expect(generated).not.toBe(password);
    expectPasswordBlock(changed, generated!);
  });
});
