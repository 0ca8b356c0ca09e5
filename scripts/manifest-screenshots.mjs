// Takes the manifest's screenshots (public/screenshots, for the richer install dialog): the forum
// with its sample posts on a phone (390×844) and on a desktop (1280×800), in the light theme.
// Needs the production build served: npm run build && npx vite preview (port 4173), then
//   node scripts/manifest-screenshots.mjs
// and make them small: pngquant --force --quality 70-90 --strip --ext .png public/screenshots/*.png
// They are never precached (vite.config.ts): only the install dialog fetches them.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

const BASE = process.env.BASE_URL ?? 'http://localhost:4173';
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });

async function shoot(viewport, file) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, serviceWorkers: 'block', colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email').fill('jane.doe@example.com');
  await page.getByLabel('Password').fill('screenshot');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${BASE}/`);
  await page.goto(`${BASE}/forum`);
  await page.getByRole('article').nth(2).waitFor();
  await page
    .locator('.app-toasts .toast')
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  await page.screenshot({ path: `public/screenshots/${file}` });
  await context.close();
}

await shoot({ width: 390, height: 844 }, 'forum-narrow.png');
await shoot({ width: 1280, height: 800 }, 'forum-wide.png');
await browser.close();
console.log('wrote public/screenshots/forum-narrow.png and forum-wide.png');
