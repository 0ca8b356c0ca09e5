import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, initialAssets, readDist } from './dist';
import { LOADED_AS_ASKED, resolveDependencies } from '../../scripts/module-preloads.mjs';

// The entry's lazy imports as the build writes them: `import(`./name-hash.js`)`, its `.then(...)`,
// then the modules Vite's helper preloads: `[]` or `__vite__mapDeps([i, ...])`, indexes into one list.
function preloadsOf(entry: string, name: string): string[] {
  const list = /__vite__mapDeps=\(i,m=__vite__mapDeps,d=\(m\.f\|\|\(m\.f=(\[[^\]]*\])/.exec(entry)?.[1];
  if (!list) throw new Error('the entry has no preload list');
  const files = JSON.parse(list) as string[];
  const call = new RegExp(
    `import\\(\`\\./${name}-[\\w-]{8}\\.js\`\\)(?:\\.then\\([^()]*\\))*,(\\[\\]|__vite__mapDeps\\(\\[([\\d,]*)\\]\\))`,
  ).exec(entry);
  if (!call) throw new Error(`the entry does not import ${name}`);
  return (call[2] ?? '')
    .split(',')
    .filter(Boolean)
    .map((index) => files[Number(index)]!);
}

describe('module preloads of lazy screens', () => {
  const entryPath = initialAssets().scripts.find((path) => /\/index-[\w-]+\.js$/.test(path))!;
  const entry = readDist(entryPath);
  const chunks = readdirSync(join(DIST, 'assets')).filter((file) => file.endsWith('.js'));

  it('leaves out the imports of the protected area and the forum, and only theirs', () => {
    expect(resolveDependencies('assets/forum-9QxvbYuX.js', ['assets/a.js'])).toEqual([]);
    expect(resolveDependencies('assets/protected-route-DhBRC3ac.js', ['assets/a.js'])).toEqual([]);
    expect(resolveDependencies('assets/post-DQSFrpfP.js', ['assets/a.js'])).toEqual(['assets/a.js']);
    expect(resolveDependencies('assets/forum-card-DQSFrpfP.js', ['assets/a.js'])).toEqual(['assets/a.js']);
  });

  it.each(LOADED_AS_ASKED)('names a chunk the build emits (%s), and the build preloads none of its scripts', (name) => {
    // A renamed screen would otherwise leave the rule matching nothing.
    expect(chunks.filter((file) => new RegExp(`^${name}-[\\w-]{8}\\.js$`).test(file))).toHaveLength(1);
    expect(preloadsOf(entry, name).filter((file) => file.endsWith('.js'))).toEqual([]);
  });

  it('keeps the preloads of the other screens: the post page has its imports preloaded', () => {
    const preloads = preloadsOf(entry, 'post').filter((file) => file.endsWith('.js'));
    expect(preloads.length).toBeGreaterThan(10);
    expect(preloads.some((file) => /^assets\/post-[\w-]{8}\.js$/.test(file))).toBe(true);
  });
});
