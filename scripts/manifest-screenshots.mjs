// Takes the manifest's screenshots (public/screenshots, for the richer install dialog): the forum
// with its sample posts on a phone (390×844) and on a desktop (1280×800), in the light theme.
// Needs the production build served: npm run build && npx vite preview (port 4173), then
//   node scripts/manifest-screenshots.mjs
// and make them small: pngquant --force --quality 70-90 --strip --ext .png public/screenshots/*.png
// They are never precached (vite.config.ts): only the install dialog fetches them.
import { launchBrowser, shootForum } from './forum-screenshot.mjs';

const browser = await launchBrowser();
const shoot = (viewport, file) => shootForum(browser, viewport, `public/screenshots/${file}`);

await shoot({ width: 390, height: 844 }, 'forum-narrow.png');
await shoot({ width: 1280, height: 800 }, 'forum-wide.png');
await browser.close();
console.log('wrote public/screenshots/forum-narrow.png and forum-wide.png');
