// Renders the app icons in public/icons from one SVG drawing, with Debian's Chromium.
// Run it after changing the drawing: node scripts/make-icons.mjs
import { writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const INDIGO = '#3b32b8';
const AMBER = '#f5a524';

/** The mark: a speech bubble holding a rising bar chart. `inset` shrinks it for maskable icons. */
function drawing({ rounded, inset }) {
  const scale = 1 - inset * 2;
  const offset = 512 * inset;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="${rounded ? 112 : 0}" fill="${INDIGO}"/>
  <g transform="translate(${offset} ${offset}) scale(${scale})">
    <path d="M124 120h264a44 44 0 0 1 44 44v152a44 44 0 0 1-44 44H248l-84 68v-68h-40a44 44 0 0 1-44-44V164a44 44 0 0 1 44-44z" fill="#fff"/>
    <rect x="166" y="262" width="46" height="58" rx="10" fill="${INDIGO}"/>
    <rect x="233" y="218" width="46" height="102" rx="10" fill="${AMBER}"/>
    <rect x="300" y="174" width="46" height="146" rx="10" fill="${INDIGO}"/>
  </g>
</svg>`;
}

const targets = [
  { file: 'icon-192.png', size: 192, rounded: true, inset: 0 },
  { file: 'icon-512.png', size: 512, rounded: true, inset: 0 },
  { file: 'icon-maskable-512.png', size: 512, rounded: false, inset: 0.1 },
  { file: 'apple-touch-icon.png', size: 180, rounded: false, inset: 0.04 },
  { file: 'favicon-32.png', size: 32, rounded: true, inset: 0 },
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage();
writeFileSync('public/icons/favicon.svg', drawing({ rounded: true, inset: 0 }));
for (const target of targets) {
  await page.setViewportSize({ width: target.size, height: target.size });
  const svg = drawing(target).replace('<svg ', `<svg width="${target.size}" height="${target.size}" `);
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.screenshot({
    path: `public/icons/${target.file}`,
    omitBackground: true,
    clip: { x: 0, y: 0, width: target.size, height: target.size },
  });
}
await browser.close();
console.log(`wrote ${targets.length + 1} icons to public/icons`);
