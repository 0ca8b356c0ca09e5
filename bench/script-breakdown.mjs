// Which packages and app folders make up the JavaScript fetched to reach /forum (issue 24's row).
//
//   node bench/script-breakdown.mjs index-CuMCZPpZ.js schema-C-N9-UG4.js …   (--all: every app folder; --files: by source file)
//
// The arguments are the file list bench/run.mjs logs ("JavaScript to reach /forum: …"), of the
// build in dist/. The script builds the app again with source maps into
// bench/.work/sourcemap-build, finds each file there (same name before the hash, closest code),
// and shares each file's gzip size in dist/ (level 9, as the bench counts it) among the sources
// its minified characters came from. The shares are estimates: gzip does not compress every part
// of a file alike.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';

const OUT = join('bench', '.work', 'sourcemap-build');
const all = process.argv.includes('--all'); // every app folder, not only the 12 largest
const files = process.argv.includes('--files'); // by source file, not by folder
const wanted = process.argv
  .slice(2)
  .filter((arg) => arg !== '--all' && arg !== '--files')
  .map((name) => name.replace(/,$/, ''));
if (wanted.length === 0) {
  console.error('Give the file list bench/run.mjs logs after "JavaScript to reach /forum:".');
  process.exit(2);
}

rmSync(OUT, { recursive: true, force: true });
execFileSync('npx', ['vite', 'build', '--sourcemap', '--outDir', OUT, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' });
const built = readdirSync(join(OUT, 'assets')).filter((name) => name.endsWith('.js'));
const stem = (name) => name.replace(/-[\w-]{8}\.js$/, '');
const unhashed = (code) => code.replace(/-[\w-]{8}\.js/g, '.js');
const withoutMapComment = (file) => readFileSync(join(OUT, 'assets', file), 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '');

/** A source's share: its package under node_modules, or its folder under src/. */
function owner(source) {
  const packagePath = source.split('node_modules/').at(-1);
  if (files) return packagePath.replace(/^.*?src\//, 'src/');
  if (packagePath !== source)
    return packagePath
      .split('/')
      .slice(0, packagePath.startsWith('@') ? 2 : 1)
      .join('/');
  const appPath = source.replace(/^.*?src\//, '');
  return appPath === source ? '(generated)' : `src/${appPath.split('/').slice(0, -1).join('/') || '.'}`;
}

const shares = new Map();
let total = 0;
for (const name of wanted) {
  // The same chunk in both builds: the same name before the hash, and of those (some names, such
  // as comfort-*, belong to more than one chunk) the one whose code is closest in length once the
  // hashes it names are set aside (a build's hashes differ from another's).
  const measuredCode = readFileSync(join('dist', 'assets', name), 'utf8');
  const measured = unhashed(measuredCode).length;
  const file = built
    .filter((candidate) => stem(candidate) === stem(name))
    .sort(
      (a, b) => Math.abs(unhashed(withoutMapComment(a)).length - measured) - Math.abs(unhashed(withoutMapComment(b)).length - measured),
    )[0];
  if (!file) {
    console.error(`not in the source-map build: ${name}`);
    continue;
  }
  const code = withoutMapComment(file);
  // The size the bench counts: the file in dist/; the source-map build only shares it out.
  const gzip = gzipSync(measuredCode, { level: 9 }).length;
  total += gzip;
  let map;
  try {
    map = new SourceMapConsumer(JSON.parse(readFileSync(join(OUT, 'assets', `${file}.map`), 'utf8')));
  } catch {
    shares.set(`(${stem(file)}, no source map)`, (shares.get(`(${stem(file)}, no source map)`) ?? 0) + gzip);
    continue;
  }
  const lines = code.split('\n');
  const mappings = [];
  map.eachMapping((mapping) => mappings.push(mapping));
  const chars = new Map();
  let mapped = 0;
  mappings.forEach((mapping, i) => {
    const next = mappings[i + 1];
    const end =
      next && next.generatedLine === mapping.generatedLine ? next.generatedColumn : (lines[mapping.generatedLine - 1]?.length ?? 0);
    const length = Math.max(0, end - mapping.generatedColumn);
    const key = mapping.source ? owner(mapping.source) : '(generated)';
    chars.set(key, (chars.get(key) ?? 0) + length);
    mapped += length;
  });
  for (const [key, length] of chars) shares.set(key, (shares.get(key) ?? 0) + (gzip * length) / Math.max(1, mapped));
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
const rows = [...shares].sort((a, b) => b[1] - a[1]);
const packages = rows.filter(([key]) => !key.startsWith('src/') && !key.startsWith('('));
const app = rows.filter(([key]) => key.startsWith('src/') || key.startsWith('('));
const sum = (list) => list.reduce((acc, [, bytes]) => acc + bytes, 0);
console.log(`| part | KB gzip (estimate) |`);
console.log(`| --- | --- |`);
for (const [key, bytes] of packages) if (bytes >= 512) console.log(`| ${key} | ${kb(bytes)} |`);
console.log(`| packages, all | ${kb(sum(packages))} |`);
for (const [key, bytes] of all ? app : app.slice(0, 12)) console.log(`| ${key} | ${kb(bytes)} |`);
console.log(`| the app's own code, all (${app.length} folders) | ${kb(sum(app))} |`);
console.log(`| **total** (${wanted.length} files) | **${kb(total)}** |`);
rmSync(OUT, { recursive: true, force: true });
