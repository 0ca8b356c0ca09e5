// Everything about an operation is on its definition (src/shared/ops: its limits, whether it is a
// staff action and its words, its legacy codes, how the device settles it), read by the generic
// machinery. So no module outside src/shared/ops branches on an operation's name (`op.type ===
// 'create'`, `case 'approve':`, a set or map of names) but the screens of the operations themselves.
// The sources are read as text (nothing is run).
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/shared/ops/registry';

const SOURCES = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '/server/**/*.ts', '!/src/shared/ops/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The screens of an operation, which decide between its own (the review queue: approve or reject). */
const SCREENS = [
  'src/features/admin/pending-post.tsx',
  'src/features/admin/pending-queue.tsx',
  'src/features/admin/bulk-toolbar.tsx',
  'src/features/admin/bulk-toast.ts',
];

const NAMES = OPERATIONS.map((definition) => definition.type);
const NAME = `['"\`](${NAMES.join('|')})['"\`]`;
/** Names of two words (`deletePost`): a map's key, unquoted, is one of these. */
const KEY = `^\\s*(${NAMES.filter((name) => /[A-Z]/.test(name)).join('|')})\\s*:\\s`;

/** Names of one word (`reply`, `flag`) are words of other things too: compared, only as a type or an action. */
const COMPARED = `(\\b(type|action)\\s*(===|!==)\\s*${NAME}|${NAME}\\s*(===|!==)\\s*[\\w.]*\\b(type|action)\\b)`;
const TWO_WORDS = `['"\`](${NAMES.filter((name) => /[A-Z]/.test(name)).join('|')})['"\`]`;

/** What branches on a name: a comparison, a case, a lookup in a set, a list of names, a map keyed by them. */
const BRANCHES = [
  new RegExp(COMPARED),
  new RegExp(`(===|!==)\\s*${TWO_WORDS}|${TWO_WORDS}\\s*(===|!==)`),
  new RegExp(`case\\s+${NAME}\\s*:`),
  new RegExp(`\\.(has|includes)\\(\\s*${NAME}`),
  new RegExp(`${NAME}\\s*,\\s*${NAME}`),
  new RegExp(`^\\s*${NAME}\\s*:`),
  new RegExp(KEY),
];

/** A comment's line (docs name operations freely). */
const COMMENT = /^\s*(\/\/|\*|\/\*)/;

/** Each line of `text` that branches on an operation's name, as "path:line: text". */
export function branchesIn(path: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      !COMMENT.test(line) && BRANCHES.some((pattern) => pattern.test(line)) ? [`${path}:${index + 1}: ${line.trim()}`] : [],
    );
}

describe('operation names outside their definitions', () => {
  it('reads the sources (the scan sees src and server)', () => {
    const paths = Object.keys(SOURCES);
    expect(paths).toContain('/src/db/sync/apply-results.ts');
    expect(paths).toContain('/server/lib/limits.ts');
    expect(paths.some((path) => path.startsWith('/src/shared/ops/'))).toBe(false);
  });

  it('finds a branch on a name (the scan itself)', () => {
    expect(branchesIn('x.ts', "if (row.op.type === 'deletePost') return;\nswitch (type) {\n  case 'approve':\n}")).toHaveLength(2);
    expect(branchesIn('x.ts', "const STAFF = new Set(['approve', 'reject']);\nconst VERBS = {\n  hidePost: 'hid',\n};")).toHaveLength(2);
    expect(
      branchesIn('x.ts', "if (op.type !== 'reply') return;\nif (made === 'reply') return;\nif (mode === 'deletePost') return;"),
    ).toHaveLength(2);
    expect(
      branchesIn('x.ts', "await runOperation('like', { postId });\nconst label = plural(n, 'like');\n// if (op.type === 'like')"),
    ).toEqual([]);
  });

  it('finds none outside src/shared/ops but the operations’ screens', () => {
    const found = Object.entries(SOURCES).flatMap(([path, text]) => {
      const file = path.slice(1);
      return SCREENS.includes(file) ? [] : branchesIn(file, text);
    });
    expect(found).toEqual([]);
  });

  it('keeps its list of exceptions true (each still exists)', () => {
    for (const file of SCREENS) expect(Object.keys(SOURCES), file).toContain(`/${file}`);
  });
});
