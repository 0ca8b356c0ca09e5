#!/usr/bin/env node
// `node scripts/precompress.mjs [dist]` (the last step of `npm run build`): writes beside each text
// file of the built app its Brotli (.br, quality 11) and gzip (.gz, level 9) copies, which the
// server sends as they are (@fastify/static preCompressed, server/plugins/static-app.ts). Without
// them the server compressed each script again on every request: about 10-25 ms of its CPU per
// file (zstd, measured with curl on the 331 KB entry), some 45 files on a browser's first visit,
// on the same 2 cores as the browser (issue 64, item 4). Files under 1 KB stay as they are (the
// compression plugin's own threshold). A build without this step still works: the server then
// compresses as before. Only Node built-ins here.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const DIST = process.argv[2] ?? 'dist';
const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/;
const SMALLEST = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Every file under `dir`. */
function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The files of `dist` worth sending compressed. */
function compressible(dist) {
  return walk(dist).filter((file) => TEXT.test(file) && statSync(file).size >= SMALLEST);
}

/** Writes `file`.br and `file`.gz; resolves to their sizes. */
async function compress(file) {
  const bytes = readFileSync(file);
  const [br, gzipped] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gz(bytes, { level: 9 }),
  ]);
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipped);
  return { raw: bytes.length, br: br.length, gzip: gzipped.length };
}

/** Writes the .br and .gz copies of every compressible file of `dist`; resolves to their sizes. */
export async function precompress(dist) {
  return Promise.all(compressible(dist).map(compress));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  const sizes = await precompress(DIST);
  const sum = (key) => sizes.reduce((total, size) => total + size[key], 0);
  const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
  console.log(
    `Precompressed ${sizes.length} files of ${relative(process.cwd(), DIST) || DIST}: ${kb(sum('raw'))} -> ${kb(sum('br'))} Brotli, ${kb(sum('gzip'))} gzip, in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
}
