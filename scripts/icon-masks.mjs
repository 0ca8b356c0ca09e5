#!/usr/bin/env node
// Writes src/styles/icons/sprite.svg: Tabler's heart, filled heart, share, message, eye and paperclip
// (the forum cards' CSS masks) and menu (the navbar toggler) side by side, 24 px apart. One image,
// because every SVG image a stylesheet uses is a document of its own, built on the main thread
// while styles are first computed: measured before the forum's first paint, the six separate
// images cost about 45 ms at 1x CPU (a 4x-throttled trace: 6 documents, 22-33 ms each).
//
//   node scripts/icon-masks.mjs     (run again after changing an icon; the sprite is committed)
import { readFileSync, writeFileSync } from 'node:fs';

/** The sprite's icons, in order: keep `$icon-sprite` in src/styles/_icons.scss in step. */
const SPRITE = [
  ['outline', 'heart'],
  ['filled', 'heart'],
  ['outline', 'share'],
  ['outline', 'message-circle'],
  ['outline', 'eye'],
  ['outline', 'menu-2'],
  ['outline', 'paperclip'],
];

const groups = SPRITE.map(([style, name], i) => {
  const source = readFileSync(`node_modules/@tabler/icons/icons/${style}/${name}.svg`, 'utf8');
  const body = source
    .replace(/^[\s\S]*?<svg[^>]*>/, '')
    .replace(/<\/svg>\s*$/, '')
    .replace(/<path stroke="none" d="M0 0h24v24H0z" fill="none" \/>/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const paint =
    style === 'filled' ? 'fill="#000"' : 'fill="none" stroke="#000" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"';
  return `<g transform="translate(${i * 24})" ${paint}>${body}</g>`;
});
const width = SPRITE.length * 24;
writeFileSync(
  'src/styles/icons/sprite.svg',
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="24" viewBox="0 0 ${width} 24">${groups.join('')}</svg>\n`,
);
console.log('src/styles/icons/sprite.svg');
