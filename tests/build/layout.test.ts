// A layout that shows the domains (issue 60, item 6): tests mirror the folders of what they test, and
// no file or folder is named after a milestone (the names said when something was built, not what it
// does). A unit test sits in the src/ folder it tests (tests/unit/lint and tests/unit/scripts test the
// ESLint configuration and scripts/); a server test of one module sits in its server/ folder.
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

/** The folders of `tests` that mirror no folder of `source` (the rest of its path after `tests`). */
function unmirrored(tests: string, source: string, own: RegExp): string[] {
  const sourceFolders = new Set(folders(source).map((path) => path.slice(source.length + 1)));
  return folders(tests)
    .map((path) => path.slice(tests.length + 1))
    .filter((path) => !own.test(path) && !sourceFolders.has(path));
}

describe('the layout', () => {
  it('names no file or folder after a milestone', () => {
    const paths = ['src', 'server', 'tests'].flatMap(walk);
    expect(paths.length).toBeGreaterThan(500);
    expect(paths.filter((path) => MILESTONES.test(path.split('/').slice(1).join('/')))).toEqual([]);
  });

  it('keeps unit tests in the folders of src/', () => {
    expect(folders('tests/unit').length).toBeGreaterThan(15);
    expect(unmirrored('tests/unit', 'src', /^(lint|scripts)(\/|$)/)).toEqual([]);
  });

  it('keeps server tests in the folders of server/', () => {
    expect(unmirrored('tests/server', 'server', /^support(\/|$)/)).toEqual([]);
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
