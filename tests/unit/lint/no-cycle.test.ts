// The lint rule against import cycles must really fire: it once passed every file because
// import-x parsed no TypeScript it followed. This lints a deliberate cycle with the project's config.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const fixtures = decodeURIComponent(new URL('./fixtures/cycle/', import.meta.url).pathname);

describe('import-x/no-cycle with the project config', () => {
  it('reports the deliberate cycle in both files', async () => {
    const eslint = new ESLint({ ignore: false });
    const results = await eslint.lintFiles([`${fixtures}first.ts`, `${fixtures}second.ts`]);
    const cycleErrors = results.map((result) => result.messages.filter((message) => message.ruleId === 'import-x/no-cycle').length);
    expect(cycleErrors).toEqual([1, 1]);
  }, 60_000);
});
