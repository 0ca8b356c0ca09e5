// A layout that shows the domains (issue 60, item 6): tests mirror the folders of what they test, and
// no file or folder is named after a milestone (the names said when something was built, not what it
// does). A unit test sits in the src/ folder it tests (tests/unit/lint and tests/unit/scripts test the
// ESLint configuration and scripts/). A server test sits in the server/ folder of what it is about
// (tests/server/routes/api for a route, tests/server/db/<domain> for a domain's SQL), or in
// tests/server/shared for a rule of src/shared held against the server's SQL; only a test of a whole
// top-level file (server.ts, backup.ts) sits at the top, named after it.
import { readdirSync, type Dirent } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const MILESTONES = /comfort|conversations|services/i;

/** Every file and folder under `dir`, as paths from the repository's root with forward slashes. */
const walk = (dir: string): string[] =>
  (readdirSync(join(root, dir), { recursive: true }) as string[]).map((path) => `${dir}/${path.split(sep).join('/')}`);

const folders = (dir: string): string[] =>
  (readdirSync(join(root, dir), { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((entry) => entry.isDirectory())
    .map(
      (entry) =>
        `${join(entry.parentPath, entry.name)
          .slice(root.length + 1)
          .split(sep)
          .join('/')}`,
    );

/** The folders under `source`, as paths from `source` (`db/posts` for src/db/posts). */
const foldersOf = (source: string): string[] => folders(source).map((path) => path.slice(source.length + 1));

/** The folders of `tests` that mirror none of `sourceFolders` (the rest of its path after `tests`). */
function unmirrored(tests: string, sourceFolders: Set<string>, own: RegExp): string[] {
  return folders(tests)
    .map((path) => path.slice(tests.length + 1))
    .filter((path) => !own.test(path) && !sourceFolders.has(path));
}

/** The folders a server test may sit in: server/'s, and src/shared's under `shared`. */
const serverTestFolders = (): Set<string> =>
  new Set([...foldersOf('server'), 'shared', ...foldersOf('src/shared').map((path) => `shared/${path}`)]);

/** Whether a test at the top of tests/server is named after a file at the top of server/ (`server-cluster` for server.ts). */
const namedForATopFile = (test: string, topFiles: Set<string>): boolean => {
  const name = test.replace(/\.test\.ts$/, '');
  return [...topFiles].some((file) => name === file || name.startsWith(`${file}-`));
};

describe('the layout', () => {
  it('names no file or folder after a milestone', () => {
    const paths = ['src', 'server', 'tests'].flatMap(walk);
    expect(paths.length).toBeGreaterThan(500);
    expect(paths.filter((path) => MILESTONES.test(path.split('/').slice(1).join('/')))).toEqual([]);
  });

  it('keeps unit tests in the folders of src/', () => {
    expect(folders('tests/unit').length).toBeGreaterThan(15);
    expect(unmirrored('tests/unit', new Set(foldersOf('src')), /^(lint|scripts)(\/|$)/)).toEqual([]);
  });

  it('keeps server tests in the folders of server/ (and src/shared)', () => {
    expect(folders('tests/server').length).toBeGreaterThan(10);
    expect(unmirrored('tests/server', serverTestFolders(), /^support(\/|$)/)).toEqual([]);
  });

  it('keeps at the top of tests/server only tests of a top-level server/ file, named after it', () => {
    const topFiles = new Set(
      readdirSync(join(root, 'server'))
        .filter((name) => name.endsWith('.ts'))
        .map((name) => name.slice(0, -3)),
    );
    const topTests = readdirSync(join(root, 'tests/server')).filter((name) => name.endsWith('.test.ts'));
    expect(topTests.length).toBeGreaterThan(0);
    expect(topTests.filter((name) => !namedForATopFile(name, topFiles))).toEqual([]);
  });

  it('tells a server test that mirrors its source from one that does not', () => {
    const mirrors = serverTestFolders();
    for (const folder of ['routes/api', 'db/ops', 'mail', 'shared', 'shared/ops']) expect(mirrors.has(folder)).toBe(true);
    for (const folder of ['api', 'shared/db', 'sync', 'features']) expect(mirrors.has(folder)).toBe(false);
    const topFiles = new Set(['server', 'backup', 'admin-password']);
    for (const name of ['server.test.ts', 'server-cluster.test.ts', 'admin-password.test.ts'])
      expect(namedForATopFile(name, topFiles)).toBe(true);
    for (const name of ['process.test.ts', 'servers.test.ts', 'admin.test.ts']) expect(namedForATopFile(name, topFiles)).toBe(false);
  });

  it('tells a milestone name from a domain name', () => {
    for (const name of ['tests/e2e/comfort-new.spec.ts', 'tests/unit/services', 'src/sync/Conversations.ts']) {
      expect(MILESTONES.test(name)).toBe(true);
    }
    for (const name of ['tests/e2e/whats-new.spec.ts', 'src/db/search/client.ts', 'tests/unit/db/mirror/scheduler.test.ts']) {
      expect(MILESTONES.test(name)).toBe(false);
    }
  });
});
