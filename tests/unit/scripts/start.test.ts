// `npm start` on an older Node (issue 59, item 8): it runs scripts/start.mjs, which builds and serves
// on Node 24 (.tools/node) whenever the machine's Node is one package.json's engines do not name
// (checked against the engines field itself, so the two cannot drift apart unnoticed).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the project (it runs before npm install), without types.
import { supportedNode } from '../../../scripts/node24.mjs';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

describe('npm start on any Node', () => {
  it('runs scripts/start.mjs, which switches to Node 24 exactly when engines do not name the Node', () => {
    expect(pkg.scripts.start).toBe('node scripts/start.mjs');
    expect(pkg.engines.node).toBe('^22.12.0 || >=24');
    const supported = supportedNode as (version: string) => boolean;
    for (const version of ['18.20.4', '20.19.0', '20.20.2', '22.11.0', '23.11.0']) expect(supported(version), version).toBe(false);
    for (const version of ['22.12.0', '22.21.1', '24.0.0', '24.21.0', '25.1.0']) expect(supported(version), version).toBe(true);
  });
});
