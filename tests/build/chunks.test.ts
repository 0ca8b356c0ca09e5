import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE_CHUNK, FORUM_CHUNK, RUNNER_CHUNK } from '../../scripts/forum-chunk.mjs';
import { DIST, readDist } from './dist';

// How the build cuts the app into chunks (scripts/forum-chunk.mjs): the forum's code in one chunk,
// and no chunk that imports, through others, one that imports it back (a module of the first would
// then read a binding of the second before it is set: a component undefined, the forum's crash
// screen; the build does not see it, a member does).

const chunks = readdirSync(join(DIST, 'assets')).filter((file) => file.endsWith('.js'));
const importsOf = (file: string) =>
  [...readDist(`assets/${file}`).matchAll(/(?:from|import)\s*["']\.\/([\w.-]+\.js)["']/g)].map((match) => match[1]!);
const named = (name: string) => chunks.filter((file) => new RegExp(`^${name}-[\\w-]{8}\\.js$`).test(file));

/** Every chunk `file` imports statically, through others too, itself included. */
function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const next of importsOf(file)) closure(next, seen);
  return seen;
}

describe('the chunks of the build', () => {
  it('import one another without a cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of importsOf(file)) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of chunks) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('export every name that an import() of another chunk reads', () => {
    const exportsOf = (file: string) =>
      new Set(
        [...readDist(`assets/${file}`).matchAll(/export\s*\{([^}]*)\}/g)].flatMap((match) =>
          match[1]!.split(',').map((entry) =>
            entry
              .trim()
              .split(/\s+as\s+/)
              .pop()!,
          ),
        ),
      );
    const reads = chunks.flatMap((file) =>
      [...readDist(`assets/${file}`).matchAll(/import\(["'`]\.\/([\w.-]+\.js)["'`]\)\.then\(\(?(\w+)\)?=>\2\.([\w$]+)\)/g)].map(
        (match) => ({ chunk: match[1]!, name: match[3]! }),
      ),
    );
    expect(reads.length).toBeGreaterThan(5);
    expect(reads.filter(({ chunk, name }) => !exportsOf(chunk).has(name))).toEqual([]);
  });

  it(`hold the forum's code in one chunk (${FORUM_CHUNK}), which the first page does not import`, () => {
    expect(named(FORUM_CHUNK)).toHaveLength(1);
    const [forum] = named('forum');
    const [area] = named('protected-area');
    expect(forum && area).toBeTruthy();
    const forumChunks = new Set([...closure(forum!), ...closure(area!)]);
    expect(forumChunks).toContain(named(FORUM_CHUNK)[0]);
    // The forum screen and the protected area, the entry and its parts, the forum's chunk and a few
    // modules that something else also loads with import(): not the seventy of before.
    console.log(`the forum's static chunks: ${[...forumChunks].join(', ')}`);
    expect(forumChunks.size).toBeLessThanOrEqual(12);
    const [entry] = named('index');
    expect(closure(entry!)).not.toContain(named(FORUM_CHUNK)[0]);
  });

  it("leave the operations' runner and definitions out of the forum's static chunks (loaded at the first operation)", () => {
    const forumChunks = [...closure(named('forum')[0]!), ...closure(named('protected-area')[0]!)];
    expect(named(RUNNER_CHUNK)).toHaveLength(1);
    expect(forumChunks).not.toContain(named(RUNNER_CHUNK)[0]);
    expect(readDist(`assets/${named(RUNNER_CHUNK)[0]!}`)).toMatch(/["`]dismissFlags["`]/);
    // No definition came along in another chunk: the moderators' operations are named in none.
    expect(forumChunks.filter((file) => /["`](dismissFlags|suspendMember)["`]/.test(readDist(`assets/${file}`)))).toEqual([]);
  });

  it("leave the legacy copy's import (its merge) out of the forum's static chunks: loaded only when the copy holds something new", () => {
    const forumChunks = [...closure(named('forum')[0]!), ...closure(named('protected-area')[0]!)];
    const importing = chunks.filter((file) => /["`]posts-imported["`]/.test(readDist(`assets/${file}`)));
    expect(importing.length).toBeGreaterThan(0);
    expect(forumChunks.filter((file) => importing.includes(file))).toEqual([]);
  });

  it("leave the list's end past what the device holds (older pages, packed posts) out of the forum's static chunks: loaded where it shows", () => {
    const forumChunks = [...closure(named('forum')[0]!), ...closure(named('protected-area')[0]!)];
    const end = chunks.filter((file) => /["`]Load older posts from the server["`]/.test(readDist(`assets/${file}`)));
    expect(end).toEqual(named('older-posts'));
    expect(forumChunks.filter((file) => end.includes(file))).toEqual([]);
  });

  it(`hold React, its JSX runtime and the posts' rules in one chunk (${BASE_CHUNK}) that the entry imports and that imports only the bundler's runtime`, () => {
    expect(named(BASE_CHUNK)).toHaveLength(1);
    const base = named(BASE_CHUNK)[0]!;
    const source = readDist(`assets/${base}`);
    expect(source).toContain('react.transitional.element');
    expect(source).toContain('Case Studies');
    expect(chunks.filter((file) => /^(react|jsx-runtime|post-rules)-[\w-]{8}\.js$/.test(file))).toEqual([]);
    expect(importsOf(base).filter((file) => !file.startsWith('rolldown-runtime-'))).toEqual([]);
    expect(importsOf(named('index')[0]!)).toContain(base);
  });

  it("ship Dexie's modern build (scripts/dexie-modern.mjs), not the ES5 one behind its package's wrapper", () => {
    const read = (file: string) => readDist(`assets/${file}`);
    expect(chunks.filter((file) => read(file).includes('__dbnames'))).toHaveLength(1);
    // The wrapper's guard, and the ES5 build's spread helper.
    expect(chunks.filter((file) => read(file).includes('Two different versions of Dexie'))).toEqual([]);
    expect(chunks.filter((file) => read(file).includes('Array.prototype.slice.call'))).toEqual([]);
  });

  it("ship the fixed transitionEnd (scripts/dom-helpers-fix.mjs), not dom-helpers' own, that a child's transition could stop", () => {
    const read = (file: string) => readDist(`assets/${file}`);
    // dom-helpers' version sends its event through document.createEvent('HTMLEvents').
    expect(chunks.filter((file) => read(file).includes('HTMLEvents'))).toEqual([]);
    expect(chunks.filter((file) => /new Event\(["'`]transitionend/.test(read(file)))).not.toEqual([]);
  });
});
