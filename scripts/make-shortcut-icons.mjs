// Renders the manifest shortcuts' 96×96 icons in public/icons (New Post, Forum, Saved): a Tabler
// glyph in white on the app's indigo, with Debian's Chromium. Run it after changing a glyph:
//   node scripts/make-shortcut-icons.mjs
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

const INDIGO = '#3b32b8';
// Tabler icons (MIT): plus, messages, bookmark.
const GLYPHS = {
  'shortcut-new-post': 'M12 5l0 14M5 12l14 0',
  'shortcut-forum':
    'M21 14l-3 -3h-7a1 1 0 0 1 -1 -1v-6a1 1 0 0 1 1 -1h9a1 1 0 0 1 1 1v10M14 15v2a1 1 0 0 1 -1 1h-7l-3 3v-10a1 1 0 0 1 1 -1h2',
  'shortcut-saved': 'M18 7v14l-6 -4l-6 4v-14a4 4 0 0 1 4 -4h4a4 4 0 0 1 4 4z',
};
const SIZE = 96;

const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
for (const [file, path] of Object.entries(GLYPHS)) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 96 96">
  <rect width="96" height="96" rx="20" fill="${INDIGO}"/>
  <g transform="translate(24 24) scale(2)" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="${path}"/></g>
</svg>`;
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.screenshot({ path: `public/icons/${file}.png`, omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
}
await browser.close();
console.log(`wrote ${Object.keys(GLYPHS).length} shortcut icons to public/icons`);
