// The fences of docs/architecture.md must really hold: this lints small probe files, placed (by
// `filePath`, nothing is written) in the folders they speak for, with the project's config, and
// expects each crossing refused. The folders are read from the disk, as eslint.config.js reads them.
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = decodeURIComponent(new URL('../../../', import.meta.url).pathname);
const FENCE = 'import-x/no-restricted-paths';

// Every module of src/features and src/db, as on the disk (only the names: nothing is loaded).
const MODULES = Object.keys(import.meta.glob(['/src/features/**/*.{ts,tsx}', '/src/db/**/*.ts'])).map((path) => path.slice(1));
/** The folders directly in `parent` that hold modules. */
const foldersIn = (parent: string) => {
  const inside = MODULES.filter((path) => path.startsWith(`${parent}/`)).map((path) => path.slice(parent.length + 1).split('/'));
  return [...new Set(inside.filter((parts) => parts.length > 1).map((parts) => parts[0]!))];
};
/** A module of the folder to import, without its extension. */
const moduleIn = (folder: string) => {
  const file = MODULES.find((path) => path.startsWith(`${folder}/`));
  if (!file) throw new Error(`no module in ${folder}`);
  return file.replace(/\.tsx?$/, '');
};
/** The import specifier from `file` to the repository path `target`. */
const specifier = (file: string, target: string) => {
  const up = file.split('/').length - 1;
  return `${'../'.repeat(up)}${target}`;
};

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The messages of `rule` when `file` (a path in the repository, not written) holds `code`. */
async function reported(file: string, code: string, rule: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  expect(result!.messages.filter((message) => message.fatal)).toEqual([]);
  return result!.messages.filter((message) => message.ruleId === rule).map((message) => message.message);
}

/** The fence's messages for a probe in `file` importing the repository path `target`. */
const crossing = (file: string, target: string) =>
  reported(file, `import * as probe from '${specifier(file, target)}';\nexport { probe };\n`, FENCE);

describe('server/ imports only src/shared', () => {
  it('refuses an import of src/db from server/', async () => {
    expect(await crossing('server/db/fence-probe.ts', 'src/db/storage/errors')).toEqual([
      expect.stringContaining('server/ imports only src/shared'),
    ]);
    expect(await crossing('server/fence-probe.ts', 'src/db/contracts')).toHaveLength(1);
  }, 60_000);

  it('refuses the rest of the device too', async () => {
    expect(await crossing('server/routes/api/fence-probe.ts', 'src/sync/status')).toHaveLength(1);
    expect(await crossing('server/fence-probe.ts', 'src/lib/format')).toHaveLength(1);
  }, 60_000);

  it('lets server/ import src/shared', async () => {
    expect(await crossing('server/db/fence-probe.ts', 'src/shared/protocol')).toEqual([]);
  }, 60_000);
});

describe('features never import each other', () => {
  const features = foldersIn('src/features');

  it('finds features/sync among the feature folders', () => {
    expect(features).toContain('sync');
  });

  it('refuses every feature an import of every other feature, features/sync included', async () => {
    for (const feature of features) {
      for (const other of features.filter((name) => name !== feature)) {
        const messages = await crossing(`src/features/${feature}/fence-probe.ts`, moduleIn(`src/features/${other}`));
        expect(messages, `features/${feature} → features/${other}`).toHaveLength(1);
      }
    }
  }, 120_000);

  it('lets a feature import its own folder and the layers below', async () => {
    expect(await crossing('src/features/sync/fence-probe.ts', moduleIn('src/features/sync'))).toEqual([]);
    expect(await crossing('src/features/sync/fence-probe.ts', 'src/hooks/use-sync-status')).toEqual([]);
  }, 60_000);
});

describe('src/lib holds no React', () => {
  it('refuses react, react-dom and libraries built on React', async () => {
    const file = 'src/lib/fence-probe.ts';
    for (const name of ['react', 'react-dom/client', 'dexie-react-hooks', 'react-bootstrap/Button', '@tabler/icons-react']) {
      const messages = await reported(file, `import * as probe from '${name}';\nexport { probe };\n`, 'no-restricted-imports');
      expect(messages, name).toEqual([expect.stringContaining('React-free')]);
    }
  }, 60_000);

  it('refuses JSX and the hooks folder', async () => {
    expect(await reported('src/lib/fence-probe.tsx', 'export const probe = <p />;\n', 'no-restricted-syntax')).toHaveLength(1);
    expect(await crossing('src/lib/fence-probe.ts', 'src/hooks/use-async-value')).toHaveLength(1);
  }, 60_000);

  it('keeps src/sync, src/shared and src/db React-free too', async () => {
    for (const file of ['src/sync/fence-probe.ts', 'src/shared/fence-probe.ts', 'src/db/storage/fence-probe.ts']) {
      expect(await reported(file, `import { useState } from 'react';\nexport { useState };\n`, 'no-restricted-imports'), file).toHaveLength(
        1,
      );
    }
  }, 60_000);
});

describe('src/db and its groups', () => {
  const groups = foldersIn('src/db');

  it('fences every group of src/db from the UI and from src/sync, db/mirror included', async () => {
    expect(groups).toContain('mirror');
    for (const group of groups) {
      const file = `src/db/${group}/fence-probe.ts`;
      expect(await crossing(file, 'src/sync/status'), `db/${group} → src/sync`).toHaveLength(1);
      expect(await crossing(file, 'src/lib/format'), `db/${group} → src/lib`).toHaveLength(1);
      expect(await crossing(file, moduleIn('src/features/forum')), `db/${group} → features`).toHaveLength(1);
    }
  }, 120_000);

  it('keeps the groups one way, and the start-up file above them', async () => {
    expect(await crossing('src/db/storage/fence-probe.ts', 'src/db/posts/posts')).toHaveLength(1);
    expect(await crossing('src/db/search/fence-probe.ts', 'src/db/members/session')).toHaveLength(1);
    expect(await crossing('src/db/mirror/fence-probe.ts', 'src/db/members/session')).toHaveLength(1);
    expect(await crossing('src/db/members/fence-probe.ts', 'src/db/startup')).toHaveLength(1);
    expect(await crossing('src/db/contracts.ts', 'src/db/storage/schema')).toHaveLength(1);
    // The domains sit below sync (the pulls and the push answers), never above it.
    expect(await crossing('src/db/posts/fence-probe.ts', 'src/db/sync/apply-pull')).toHaveLength(1);
    expect(await crossing('src/db/likes/fence-probe.ts', 'src/db/posts/posts')).toHaveLength(1);
    // What the groups may use.
    expect(await crossing('src/db/posts/fence-probe.ts', 'src/db/ops/run')).toEqual([]);
    expect(await crossing('src/db/mirror/fence-probe.ts', 'src/db/posts/merge')).toEqual([]);
    expect(await crossing('src/db/search/fence-probe.ts', 'src/db/contracts')).toEqual([]);
  }, 60_000);
});

describe('the other layers', () => {
  it('keeps src/sync below the UI and src/shared below everything', async () => {
    expect(await crossing('src/sync/fence-probe.ts', 'src/hooks/use-sync-status')).toHaveLength(1);
    expect(await crossing('src/shared/fence-probe.ts', 'src/db/contracts')).toHaveLength(1);
  }, 60_000);

  it('lets the boot script and the service worker import names only', async () => {
    const boot = 'src/boot/forum-snapshot.ts';
    expect(await crossing(boot, 'src/db/contracts')).toEqual([]);
    expect(await crossing(boot, 'src/boot/forum-snapshot-names')).toEqual([]);
    expect(await crossing(boot, 'src/db/storage/forum-snapshot')).toHaveLength(1);
    expect(await crossing(boot, 'src/boot/forum-snapshot-app')).toHaveLength(1);
    // The service worker too.
    expect(await crossing('src/sw/fence-probe.ts', 'src/db/contracts')).toEqual([]);
    expect(await crossing('src/sw/fence-probe.ts', 'src/db/storage/schema')).toHaveLength(1);
  }, 60_000);
});
