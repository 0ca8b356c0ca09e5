import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, runnerImport, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { buildId } from './scripts/build-id.mjs';
import { resolveDependencies } from './scripts/module-preloads.mjs';
import { DEXIE_MODERN_ALIAS } from './scripts/dexie-modern.mjs';
import { TRANSITION_END_ALIAS } from './scripts/dom-helpers-fix.mjs';
import { REACT_ROUTER_PRODUCTION_ALIASES } from './scripts/react-router-production.mjs';
import { baseChunkGroup, forumChunkGroup } from './scripts/forum-chunk.mjs';
import { BOOT_ENTRY_ATTRIBUTE } from './src/boot/forum-snapshot-names.ts';
import { HOME_PRERENDER_ID, MODULE_PRELOADS_ATTRIBUTE } from './src/shared/app-shell.ts';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
/** The project's folder, ending in a slash. */
const ROOT = fileURLToPath(new URL('.', import.meta.url));

const DEFINE = {
  __APP_VERSION__: JSON.stringify(version),
  __BUILD_ID__: JSON.stringify(buildId()),
};

// The Content-Security-Policy goes into the built page only: the dev server injects inline scripts.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

// The scripts the page holds inline (the head's theme script), each allowed by its SHA-256 and by
// nothing else: set at buildStart, before the page is written.
const inlineScripts: string[] = [];
const scriptHash = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;

function contentSecurityPolicy(): Plugin {
  return {
    name: 'insight-exchange:csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => {
        const content = CONTENT_SECURITY_POLICY.replace(
          "script-src 'self'",
          ["script-src 'self'", ...inlineScripts.map(scriptHash)].join(' '),
        );
        return [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content }, injectTo: 'head-prepend' }];
      },
    },
  };
}

// src/boot/forum-snapshot.ts paints the forum's snapshot and starts the app. It is a classic
// script (a module would wait for the whole page), bundled here on its own as one small IIFE with
// the names it imports (src/db/contracts.ts, src/boot/forum-snapshot-names.ts) inlined, so it
// holds no copy of them, and written into the page below `#root`, allowed by its hash (as the head's
// theme script): a file cost a request through the service worker before the snapshot's frame, beside
// the stylesheet that frame waits for, and a copy cached from another build could never meet this
// page. It is handed the entry module (BOOT_ENTRY_ATTRIBUTE), which it imports after the snapshot has
// painted, or at once when there is none; the head's boot script preloads the entry and its imports
// as early as the module script tag had them (on `/`, after the prerendered home page's first frame:
// homePrerender; where a snapshot may paint, with the app's start: src/boot/module-preloads.ts).
// The dev server answers the script's path with the same bundle.
const BOOT_SOURCE = 'src/boot/forum-snapshot.ts';
// src/boot/theme.ts, in the head: sets the colour mode before the first paint (and starts the
// modules' preloads). Bundled the same way, then written into the page itself (under 2 KB): a
// parser-blocking script that is a file
// costs a request (through the service worker) before the first paint; inline it costs none. The
// CSP allows it by its hash alone.
const THEME_SOURCE = 'src/boot/theme.ts';

async function bundleBootScript(source = BOOT_SOURCE): Promise<string> {
  const output = await build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      rolldownOptions: { input: source, output: { format: 'iife' } },
    },
  });
  const chunk = (Array.isArray(output) ? output : [output])
    .flatMap((result) => ('output' in result ? result.output : []))
    .find((file) => file.type === 'chunk' && file.isEntry);
  if (chunk?.type !== 'chunk') throw new Error(`${source}: no bundle`);
  return chunk.code;
}

function entryAfterSnapshot(): Plugin {
  return {
    name: 'insight-exchange:entry-after-snapshot',
    apply: 'build',
    async buildStart() {
      inlineScripts.splice(
        0,
        inlineScripts.length,
        (await bundleBootScript(THEME_SOURCE)).trim(),
        (await bundleBootScript(BOOT_SOURCE)).trim(),
      );
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const [theme, boot] = inlineScripts;
        const themeTag = new RegExp(`<script src="/${THEME_SOURCE}"(?: vite-ignore)?\\s*></script>`).exec(html)?.[0];
        if (!theme || !themeTag) throw new Error(`index.html: ${THEME_SOURCE} is missing`);
        for (const [source, code] of [
          [THEME_SOURCE, theme],
          [BOOT_SOURCE, boot],
        ])
          if (code?.includes('</script')) throw new Error(`${source}: its bundle cannot be written into the page`);
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
        // The tag as Vite leaves it (it drops `vite-ignore`, which keeps it from warning about a classic script).
        const tag = new RegExp(`<script src="/${BOOT_SOURCE}"(?: vite-ignore)?\\s*></script>`).exec(html)?.[0];
        if (!boot || !entry || !tag) throw new Error(`index.html: the entry module or ${BOOT_SOURCE} is missing`);
        // The modules' preloads go to the head's boot script, which adds them at once, or on `/`
        // after the prerendered home page's first frame (homePrerender).
        const preloads = [...html.matchAll(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g)];
        const modules = [entry[1], ...preloads.map((link) => link[1])].join(' ');
        return preloads
          .reduce((page, link) => page.replace(link[0], ''), html)
          .replace(entry[0], '')
          .replace(tag, () => `<script ${BOOT_ENTRY_ATTRIBUTE}="${entry[1]}">${boot}</script>`)
          .replace(themeTag, () => `<script ${MODULE_PRELOADS_ATTRIBUTE}="${modules}">${theme}</script>`);
      },
    },
  };
}

// The home page (`/`) is painted before any JavaScript: the build renders it with the app's own
// components (src/app/home-prerender.tsx, react-dom/server) into index.html, before `#root`. The
// page is the same for every route (the service worker serves it for every navigation): off `/`
// the head's boot script hides it before the first paint (src/boot/theme.ts, main.scss) and the
// app removes it as it starts; on `/` the app removes it in the commit that draws the live home
// page (src/pages/home.tsx), so no frame shows both or neither. `#root` stays empty: the service
// worker finds it as `<div id="root"></div>` to put the forum's snapshot before it.
const HOME_PRERENDER_SOURCE = 'src/app/home-prerender.tsx';

function homePrerender(): Plugin {
  return {
    name: 'insight-exchange:home-prerender',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const root = '<div id="root"></div>';
        if (!html.includes(root)) throw new Error(`index.html: ${root} is missing`);
        const { module } = await runnerImport<{ renderHome: () => string }>(`/${HOME_PRERENDER_SOURCE}`, {
          configFile: false,
          root: ROOT,
          logLevel: 'warn',
          define: DEFINE,
        });
        return html.replace(root, `<div id="${HOME_PRERENDER_ID}">${module.renderHome()}</div>\n    ${root}`);
      },
    },
  };
}

/** In development the boot script's path answers with its bundle (the TypeScript module could not run as a classic script). */
function bootScriptInDev(): Plugin {
  return {
    name: 'insight-exchange:boot-script-dev',
    apply: 'serve',
    configureServer(server) {
      for (const source of [BOOT_SOURCE, THEME_SOURCE]) {
        server.middlewares.use(`/${source}`, (_request, response, next) => {
          bundleBootScript(source).then((code) => {
            response.setHeader('content-type', 'text/javascript');
            response.end(code);
          }, next);
        });
      }
    },
  };
}

export default defineConfig({
  define: DEFINE,
  // Dexie's modern build, dom-helpers' transitionEnd fixed, React Router's production build: the scripts say why.
  resolve: { alias: [DEXIE_MODERN_ALIAS, TRANSITION_END_ALIAS, ...REACT_ROUTER_PRODUCTION_ALIASES] },
  plugins: [
    react(),
    contentSecurityPolicy(),
    homePrerender(),
    entryAfterSnapshot(),
    bootScriptInDev(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      // public/manifest.webmanifest is the one manifest; the app registers the worker itself.
      manifest: false,
      injectRegister: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,png,svg,ico,webmanifest,woff2,txt}'],
        // The manifest's screenshots are for the install dialog only: never precached.
        globIgnores: ['**/sw.js', 'screenshots/**'],
      },
      devOptions: { enabled: false },
    }),
  ],
  css: {
    preprocessorOptions: {
      scss: {
        quietDeps: true,
        silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
      },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // The protected area and the forum load their modules as asked: scripts/module-preloads.mjs says why.
    modulePreload: { resolveDependencies },
    // The forum's code in one chunk: scripts/forum-chunk.mjs says why.
    rolldownOptions: {
      output: { codeSplitting: { groups: [baseChunkGroup(ROOT), forumChunkGroup(ROOT)] } },
    },
  },
  worker: {
    format: 'es',
  },
  preview: {
    port: 4173,
    strictPort: true,
  },
});
