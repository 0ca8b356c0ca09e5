// The docs kept true (issue 60, item 5): docs/sync-protocol.md's route list is the server's registered
// routes, read from the app as it is built (nothing to keep in step by hand), and every route a doc
// names is one of them; its `Op` union is the registry's operations, each with its wire fields and the
// protocol version that brought it; the code docs/architecture.md quotes as "a new operation" is the code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { buildApp } from '../../server/app';
import { OPERATIONS } from '../../src/shared/ops/registry';
import { opSchema } from '../../src/shared/protocol';
import { stubDatabase } from '../server/support/stub-db';

const readDoc = (path: string) => readFileSync(join(process.cwd(), path), 'utf8');

/** The text of the section under `heading` (a whole line), up to the next heading of its level or higher. */
function section(doc: string, heading: string): string {
  const lines = doc.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The routes a doc's table lists: each row opens with `METHOD /path`. */
const documentedRoutes = (text: string): string[] =>
  [...text.matchAll(/^\| `([A-Z]+) (\/[^`\s]*)`/gm)].map(([, method, url]) => `${method} ${url}`).sort();

/**
 * The routes of Fastify's printRoutes({ commonPrefix: false }) tree: one node a line, `├── /segment (GET,
 * HEAD)`, each 4 characters deeper than its parent and its path its parent's plus its own. HEAD is left
 * out: Fastify adds it to every GET.
 */
function printedRoutes(tree: string): string[] {
  const parents: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const branch = line.indexOf('── ');
    if (branch < 0) continue;
    const depth = (branch + 3) / 4;
    const [, segment, methods] = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(branch + 3))!;
    const path = (parents[depth - 2] ?? '') + segment;
    parents[depth - 1] = path;
    parents.length = depth;
    for (const method of methods?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes.sort();
}

interface UnionEntry {
  type: string;
  /** Its fields as the line names them, `id` and `type` too. */
  fields: string[];
  /** The version of the `// version N` comment above it (none: 1). */
  since: number;
}

/** The operations of the `Op = …` code block: each `{ "id": uuid, "type": "…", … }`, under its version comment. */
function unionEntries(doc: string): UnionEntry[] {
  const block = /```\n(Op = [\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('no Op union in docs/sync-protocol.md');
  const entries: UnionEntry[] = [];
  let since = 1;
  let text = '';
  const close = () => {
    if (!text) return;
    // The fields at the top level: nested objects (a post's fields) are taken out first.
    let top = text.trim().replace(/^\{|\}$/g, '');
    while (/\{[^{}]*\}/.test(top)) top = top.replace(/\{[^{}]*\}/g, '');
    const fields = [...top.matchAll(/"(\w+)"\??:/g)].map(([, field]) => field!);
    entries.push({ type: /"type": "(\w+)"/.exec(text)?.[1] ?? '?', fields, since });
    text = '';
  };
  for (const line of block.split('\n')) {
    const version = /^\s*\/\/ version (\d+)/.exec(line);
    if (version) {
      close();
      since = Number(version[1]);
      continue;
    }
    const code = line.replace(/\/\/.*$/, '');
    const start = /^(?:Op =|\s*\|) (\{.*)$/.exec(code);
    if (start) {
      close();
      text = start[1]!;
    } else if (code.trim()) text += ` ${code.trim()}`;
  }
  close();
  return entries;
}

describe('docs/sync-protocol.md', () => {
  const doc = readDoc('docs/sync-protocol.md');
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ db: stubDatabase(), adminEmail: 'admin@insightexchange.app' });
    await app.ready();
  });
  afterAll(() => app.close());

  it('lists every route the server registers, and no other', () => {
    const registered = printedRoutes(app.printRoutes({ commonPrefix: false }));
    // The tree was read right: each route it gave is one the server has.
    for (const route of registered) {
      const [method, url] = route.split(' ') as [HTTPMethods, string];
      expect(app.hasRoute({ method, url }), route).toBe(true);
    }
    expect(registered.length).toBeGreaterThan(30);
    expect(documentedRoutes(section(doc, '## Routes'))).toEqual(registered);
  });

  it('names, as every other doc and the README do, only routes the server has', () => {
    const docs = ['README.md', ...readdirSync(join(process.cwd(), 'docs')).map((name) => `docs/${name}`)].filter((path) =>
      path.endsWith('.md'),
    );
    const named = docs.flatMap((path) =>
      [...readDoc(path).matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/api\/[\w/:.-]*)/g)].map(([, method, url]) => ({ path, method, url })),
    );
    expect(named.length).toBeGreaterThan(35);
    for (const { path, method, url } of named)
      expect(app.hasRoute({ method: method as HTTPMethods, url: url! }), `${path}: ${method} ${url}`).toBe(true);
  });

  it('has in its Op union every operation of the registry, with its wire fields and its version', () => {
    const union = unionEntries(doc);
    const shapes = (opSchema as unknown as { options: { shape: Record<string, unknown> }[] }).options;
    const registry = OPERATIONS.map((definition, i) => ({
      type: definition.type as string,
      fields: Object.keys(shapes[i]!.shape).sort(),
      since: definition.since,
    }));
    const documented = union.map((entry) => ({ ...entry, fields: [...entry.fields].sort() }));
    const byType = (a: { type: string }, b: { type: string }) => a.type.localeCompare(b.type);
    expect(documented.sort(byType)).toEqual(registry.sort(byType));
  });
});

describe('docs/architecture.md', () => {
  it('quotes save as src/shared/ops/save.ts has it', () => {
    const quoted = /```ts\n([\s\S]*?)```/.exec(section(readDoc('docs/architecture.md'), '### A new operation, step by step'))?.[1];
    expect(quoted).toContain("defineOp('save'");
    expect(readDoc('src/shared/ops/save.ts')).toContain(quoted);
  });
});
