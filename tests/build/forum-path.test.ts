import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIRST_FRAME_CHUNK, FORUM_CHUNK, FRAME_COPY_CHUNK, RUNNER_CHUNK } from '../../scripts/forum-chunk.mjs';
import { DIST, gzipSizeOf, initialAssets, readDist } from './dist';

// The JavaScript on the way from /login to the forum's first posts (issue 64, item 2), from dist/
// alone: the page's first scripts (the entry and what it preloads), then the chunks that way loads
// (/login's screen, Sign In's own code, the protected area's route with the forum's first frame),
// each with every chunk it imports statically. On a new browser (local-only: no database yet) that
// is the whole way: the forum's first frame paints the sample posts before the data layer's code
// (Dexie, the forum's chunk) is asked for (src/db/storage/first-frame.ts); bench/forum-way.mjs
// measures it in a browser, with the few small chunks the page asks for as it runs (0.8 KB).
// Each file is counted by its gzip size at level 9, as the bench counts it.

const KB = 1024;
// Before the first frame (2026-12-05): 180.8 KB here, the forum's chunk (Dexie with it) and screen on
// the way; bench/forum-way.mjs 184.7 KB. With it (2026-12-06): 128.1 KB here, 128.1 KB in the bench
// (129.6 KB on a browser an older build left 10,000 posts on: their reading for the frame, 1.5 KB, comes along).
// The budget is the goal.
const BUDGET = 130 * KB;

/** The chunks the way loads besides the page's first scripts: their module's name before the hash. */
const ON_THE_WAY = ['login', 'auth', 'protected-route'];

const chunks = readdirSync(join(DIST, 'assets')).filter((file) => file.endsWith('.js'));
const importsOf = (file: string) =>
  [...readDist(`assets/${file}`).matchAll(/(?:from|import)\s*["']\.\/([\w.-]+\.js)["']/g)].map((match) => match[1]!);
const named = (name: string) => chunks.filter((file) => new RegExp(`^${name}-[\\w-]{8}\\.js$`).test(file));

/** Every chunk `file` imports statically, through others too, itself included. */
function closure(file: string, seen: Set<string>): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const next of importsOf(file)) closure(next, seen);
  return seen;
}

/** The way's chunks (file names under assets/). */
function forumPath(): Set<string> {
  const seen = new Set<string>();
  for (const path of initialAssets().scripts.filter((script) => script.startsWith('/assets/')))
    closure(path.slice('/assets/'.length), seen);
  for (const name of ON_THE_WAY) {
    const found = named(name);
    if (found.length !== 1) throw new Error(`expected one chunk named ${name}-<hash>.js in dist/assets, found ${found.length}`);
    closure(found[0]!, seen);
  }
  return seen;
}

describe('the JavaScript from /login to the forum', () => {
  const path = forumPath();
  const sizes = [...path].map((file) => ({ file, gzip: gzipSizeOf(`assets/${file}`) })).sort((a, b) => b.gzip - a.gzip);
  const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);

  it(`stays within ${BUDGET / KB} KB gzip (the issue's goal)`, () => {
    console.log(
      `/login → /forum: ${(total / KB).toFixed(1)} KB gzip of ${BUDGET / KB} KB: ${sizes
        .map(({ file, gzip }) => `${file.replace(/-[\w-]{8}\.js$/, '')} ${(gzip / KB).toFixed(1)}`)
        .join(', ')}`,
    );
    expect(path.size).toBeGreaterThan(ON_THE_WAY.length);
    expect(total).toBeLessThanOrEqual(BUDGET);
  });

  it('holds neither the data layer (Dexie, the forum’s chunk) nor the forum’s screen: they load after its first frame', () => {
    expect(named(FORUM_CHUNK)).toHaveLength(1);
    expect([...path].filter((file) => new RegExp(`^(${FORUM_CHUNK}|forum|protected-area)-[\\w-]{8}\\.js$`).test(file))).toEqual([]);
    // Dexie's own words, in whichever chunk holds it.
    expect(chunks.filter((file) => readDist(`assets/${file}`).includes('DexieError')).length).toBeGreaterThan(0);
    expect([...path].filter((file) => readDist(`assets/${file}`).includes('DexieError'))).toEqual([]);
    // The first frame's chunk is on the way (its cards, header and sidebar are the live forum's).
    expect([...path].filter((file) => new RegExp(`^${FIRST_FRAME_CHUNK}-`).test(file))).toHaveLength(1);
    // An older build's posts read for the frame (loaded by Sign In where a copy is): without Dexie either.
    const [copy] = named(FRAME_COPY_CHUNK);
    expect(copy).toBeTruthy();
    expect([...closure(copy!, new Set())].filter((file) => readDist(`assets/${file}`).includes('DexieError'))).toEqual([]);
  });

  it('holds neither the schema library (zod) nor the operations’ runner: both load after the first posts', () => {
    // zod's own message key, in whichever chunk holds it.
    expect([...path].filter((file) => readDist(`assets/${file}`).includes('invalid_type'))).toEqual([]);
    expect([...path].filter((file) => new RegExp(`^${RUNNER_CHUNK}-`).test(file))).toEqual([]);
  });

  it('holds not the offline sign-in’s verifiers: a connected device loads them (sync/auth.ts), a local-only one never', () => {
    expect(chunks.filter((file) => /^offline-accounts-/.test(file))).toHaveLength(1);
    expect([...path].filter((file) => /^offline-accounts-/.test(file))).toEqual([]);
  });

  it('holds not what /login and the protected frame show only at need: the code step, the passkey button, the organisation’s return, the notifications’ watcher, the messages’ code', () => {
    // Each is a chunk of its own, loaded when used (issue 64, item 2; 2.6 KB gzip of the way with the
    // header's unread count read apart from the messages' code).
    const later = ['two-step-form', 'passkey-sign-in', 'sso-return', 'notification-watcher'];
    for (const name of later) expect(named(name), name).toHaveLength(1);
    expect([...path].filter((file) => later.some((name) => new RegExp(`^${name}-[\\w-]{8}\\.js$`).test(file)))).toEqual([]);
    // The header's unread count reads db/messages/inbox.ts: the messages' own code (db/messages/messages.ts,
    // whose start of a conversation names its operation, in whichever quotes the minifier chose) stays off the way.
    const namesTheStart = (file: string) => /["'`]startConversation["'`]/.test(readDist(`assets/${file}`));
    expect(chunks.filter(namesTheStart).length).toBeGreaterThan(0);
    expect([...path].filter(namesTheStart)).toEqual([]);
  });
});
