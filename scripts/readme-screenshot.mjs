// Makes docs/screenshot.png for the README: the forum on a desktop and on a phone, side by side.
// Needs the production build served: npm start (or vite preview on port 4173), then
//   node scripts/readme-screenshot.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { launchBrowser, shootForum } from './forum-screenshot.mjs';

const browser = await launchBrowser();
const shoot = (viewport, file) => shootForum(browser, viewport, file);

await shoot({ width: 1280, height: 860 }, '/tmp/readme-desktop.png');
await shoot({ width: 390, height: 860 }, '/tmp/readme-phone.png');
const image = (file) => `data:image/png;base64,${readFileSync(file).toString('base64')}`;
const page = await browser.newPage({ viewport: { width: 1790, height: 940 } });
await page.setContent(`<body style="margin:0;background:#e9eaf3;display:flex;gap:40px;padding:40px;align-items:flex-start">
  <img src="${image('/tmp/readme-desktop.png')}" style="border-radius:10px;box-shadow:0 10px 30px rgba(0,0,0,.2)">
  <img src="${image('/tmp/readme-phone.png')}" style="border-radius:18px;box-shadow:0 10px 30px rgba(0,0,0,.2)">
</body>`);
writeFileSync('docs/screenshot.png', await page.screenshot());
await browser.close();
console.log('wrote docs/screenshot.png');
