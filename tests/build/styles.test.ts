// Styles beside what they style (issue 60, item 6): every stylesheet under src/ is short enough to
// read (at most 400 lines), every colour is written once, in src/styles/_tokens.scss, and used
// everywhere else through its Sass variable or an --app-* custom property, and every partial beside a
// feature is imported by src/styles/main.scss (one left out would silently drop its rules).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const TOKENS = 'src/styles/_tokens.scss';
const MAX_LINES = 400;

const stylesheets = (readdirSync(join(root, 'src'), { recursive: true }) as string[])
  .filter((path) => path.endsWith('.scss'))
  .map((path) => `src/${path.split(sep).join('/')}`)
  .sort();

const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The text without comments (a colour named in a comment is not drawn). */
const withoutComments = (scss: string) => scss.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/** Hex colours (#fff, #3b32b8, #1519340f) and rgb()/rgba()/hsl()/hsla() written with numbers. */
const COLOUR = /#[0-9a-f]{3,8}(?![\w-])|\b(?:rgba?|hsla?)\(\s*[\d.]/gi;

function colourLiterals(scss: string): string[] {
  return withoutComments(scss)
    .split('\n')
    .flatMap((line, i) => (line.match(COLOUR) ?? []).map((found) => `${i + 1}: ${found}`));
}

describe('stylesheets', () => {
  it('finds the stylesheets', () => {
    expect(stylesheets).toContain(TOKENS);
    expect(stylesheets).toContain('src/styles/main.scss');
    expect(stylesheets.length).toBeGreaterThan(20);
  });

  it(`keeps every stylesheet to ${MAX_LINES} lines`, () => {
    const long = stylesheets
      .map((path) => ({ path, lines: read(path).split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ path, lines }) => `${path}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('writes colours only in the tokens file', () => {
    const outside = stylesheets
      .filter((path) => path !== TOKENS)
      .flatMap((path) => colourLiterals(read(path)).map((found) => `${path}:${found}`));
    expect(outside).toEqual([]);
  });

  it('writes each colour once in the tokens file', () => {
    const colours = [...withoutComments(read(TOKENS)).matchAll(/^\$[\w-]+:\s*(.+);$/gm)]
      .map(([, value]) => value.toLowerCase())
      .filter((value) => new RegExp(COLOUR.source, 'i').test(value));
    expect(colours.length).toBeGreaterThan(20);
    expect(colours.filter((colour, i) => colours.indexOf(colour) !== i)).toEqual([]);
  });

  it('imports every partial beside a feature from main.scss', () => {
    const main = read('src/styles/main.scss');
    const imported = [...main.matchAll(/^@import '(\.[^']+)';/gm)].map(([, path]) => {
      const full = relative(root, join(root, 'src/styles', path))
        .split(sep)
        .join('/');
      return full.replace(/([^/]+)$/, '_$1.scss');
    });
    const partials = stylesheets.filter((path) => /\/_[^/]+\.scss$/.test(path) && !path.startsWith('src/styles/'));
    expect(partials.length).toBeGreaterThan(10);
    expect(partials.filter((path) => !imported.includes(path))).toEqual([]);
  });

  it('tells a colour literal from a variable, an interpolation and an id', () => {
    expect(colourLiterals('a { color: #fff; b: rgba(0, 0, 0, 0.1); c: rgb(0 0 0 / 12%); d: #3B32B8 }')).toEqual([
      '1: #fff',
      '1: rgba(0',
      '1: rgb(0',
      '1: #3B32B8',
    ]);
    expect(
      colourLiterals(
        "--x: #{$primary};\n#home-prerender { color: $app-white; o: rgba($primary, 0.5); b: rgba(var(--bs-primary-rgb), 0.4) }\n// #fff in a comment\nu: url('#a')",
      ),
    ).toEqual([]);
  });
});
