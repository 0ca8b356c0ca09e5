import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIST, precacheEntries, readDist } from './dist';
import { FORUM_SNAPSHOT_CACHE, FORUM_SNAPSHOT_COOKIE, FORUM_SNAPSHOT_URL } from '../../src/db/contracts';
import { THEME_COLORS, THEME_COOKIE } from '../../src/shared/theme';
import { SNAPSHOT_ON_CLASS, SNAPSHOT_TEMPLATE_ID, SNAPSHOT_VIEW_ID } from '../../src/boot/forum-snapshot-names';
import { HOME_PRERENDER_OFF_CLASS, MODULE_PRELOADS_ATTRIBUTE } from '../../src/boot/home-prerender-names';

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(path: string): [number, number] {
  const bytes = readFileSync(`${DIST}/${path}`);
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('the service worker precache', () => {
  const entries = precacheEntries();
  const urls = entries.map((entry) => entry.url);

  it('holds the app shell: index.html, the manifest, the icons, every script and style', () => {
    expect(urls).toContain('index.html');
    expect(urls).toContain('manifest.webmanifest');
    for (const icon of [
      'icons/icon-192.png',
      'icons/icon-512.png',
      'icons/icon-maskable-512.png',
      'icons/apple-touch-icon.png',
      'icons/favicon.svg',
    ]) {
      expect(urls).toContain(icon);
    }
    const assets = readdirSync(`${DIST}/assets`).filter((file) => /\.(js|css)$/.test(file));
    expect(assets.length).toBeGreaterThan(5);
    for (const asset of assets) expect(urls).toContain(`assets/${asset}`);
  });

  it('does not hold the service worker itself', () => {
    expect(urls.some((url) => /(^|\/)sw\.js$/.test(url))).toBe(false);
  });

  it('revisions files whose names carry no hash: the page, the manifest, the icons', () => {
    const unhashed = entries.filter((item) => !item.url.startsWith('assets/'));
    // Named, so a list that lost them (and the loop below with them) fails here.
    expect(unhashed.map((entry) => entry.url)).toEqual(
      expect.arrayContaining(['index.html', 'manifest.webmanifest', 'icons/icon-192.png', 'icons/favicon.svg']),
    );
    for (const entry of unhashed) expect(entry.revision, entry.url).toMatch(/\w{8,}/);
  });
});

describe('the web app manifest', () => {
  it('is the one in public/, linked once from index.html, with no second generated manifest', () => {
    const manifests = readdirSync(DIST).filter((file) => file.endsWith('.webmanifest') || file === 'manifest.json');
    // The dark variant, which the page links in dark mode (src/boot/color-mode.ts), differs in its colours only.
    expect(manifests.sort()).toEqual(['manifest-dark.webmanifest', 'manifest.webmanifest']);
    const dark = JSON.parse(readDist('manifest-dark.webmanifest')) as Record<string, unknown>;
    const html = readDist('index.html');
    expect(html.match(/<link rel="manifest"/g)).toHaveLength(1);
    const manifest = JSON.parse(readDist('manifest.webmanifest')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'Insight Exchange', short_name: 'Insight', display: 'standalone', start_url: '/', scope: '/' });
    expect(manifest).toMatchObject({ theme_color: THEME_COLORS.light.theme, background_color: THEME_COLORS.light.background });
    expect(dark).toEqual({ ...manifest, theme_color: THEME_COLORS.dark.theme, background_color: THEME_COLORS.dark.background });
  });

  it('has shortcuts with 96×96 icons, screenshots for the install dialog (not precached) and a share target', () => {
    const manifest = JSON.parse(readDist('manifest.webmanifest')) as {
      shortcuts: Array<{ name: string; url: string; icons: Array<{ src: string; sizes: string }> }>;
      screenshots: Array<{ src: string; sizes: string; form_factor: string; label: string }>;
      share_target: unknown;
    };
    expect(manifest.shortcuts.map((shortcut) => [shortcut.name, shortcut.url])).toEqual([
      ['New Post', '/new'],
      ['Forum', '/forum'],
      ['Saved', '/profile#saved-posts'],
    ]);
    for (const shortcut of manifest.shortcuts) {
      expect(shortcut.icons[0]!.sizes).toBe('96x96');
      expect(pngSize(shortcut.icons[0]!.src.slice(1))).toEqual([96, 96]);
    }
    expect(manifest.screenshots.map((shot) => shot.form_factor).sort()).toEqual(['narrow', 'wide']);
    for (const shot of manifest.screenshots) {
      expect(shot.label.length).toBeGreaterThan(10);
      expect(pngSize(shot.src.slice(1)).join('x')).toBe(shot.sizes);
      expect(precacheEntries().some((entry) => entry.url === shot.src.slice(1))).toBe(false);
    }
    expect(manifest.share_target).toEqual({
      action: '/share',
      method: 'GET',
      enctype: 'application/x-www-form-urlencoded',
      params: { title: 'title', text: 'text', url: 'url' },
    });
  });

  it('carries the meta tags for browsers and iOS, and a strict Content-Security-Policy', () => {
    const html = readDist('index.html');
    for (const tag of [
      'name="theme-color"',
      'name="description"',
      'rel="apple-touch-icon"',
      'name="apple-mobile-web-app-capable"',
      'name="apple-mobile-web-app-title"',
    ]) {
      expect(html).toContain(tag);
    }
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1]?.replace(/&#39;/g, "'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).not.toContain('unsafe-inline');
    // Two inline scripts only (the theme's and the forum snapshot's, each allowed by its hash: below).
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toHaveLength(2);
  });

  it('leaves out /api: the static answer to GET /api/health (local-only) is always asked of the host', () => {
    expect(precacheEntries().some((entry) => entry.url.startsWith('api/'))).toBe(false);
    expect(JSON.parse(readDist('api/health'))).toMatchObject({ ok: false, server: false });
  });
});

describe('index.html', () => {
  const html = readDist('index.html');

  it('starts the app from the forum-snapshot script, inline in the page, which runs it after the snapshot paints', () => {
    expect(html).not.toMatch(/<script type="module"/);
    const tag = /<script data-entry="(\/assets\/index-[\w-]+\.js)">([^]*?)<\/script>/.exec(html);
    expect(tag).not.toBeNull();
    const [, entry, code] = tag!;
    expect(code).toContain('data-entry');
    // Its modules are preloaded by the head's boot script (on `/` after the prerendered page's first frame).
    const modules = new RegExp(`<script ${MODULE_PRELOADS_ATTRIBUTE}="([^"]+)">`).exec(html)?.[1];
    expect(modules?.split(' ')[0]).toBe(entry);
    expect(html).not.toContain('rel="modulepreload"');
    expect(readDist(entry!)).toContain('createRoot');
    // Inline: no request (through the service worker) before the snapshot's frame, and no copy under
    // any name that a cache could keep from another build.
    expect(readdirSync(`${DIST}/assets`).filter((name) => name.startsWith('forum-snapshot'))).toEqual([]);
    expect(html).not.toContain('rel="preload"');
  });

  it('sets the colour mode from the head with one small inline script that reads THEME_COOKIE, allowed by its hash alone', () => {
    // In the head, before the stylesheet: nothing is painted before it ran; inline, it costs no request.
    const tag = /<script [^>]*>([^]*?)<\/script>[^]*<link rel="stylesheet"[^]*<\/head>/.exec(html);
    expect(tag).not.toBeNull();
    const code = tag![1]!;
    expect(code).not.toMatch(/\bimport\s*[({"'`*]|\bexport\b|createRoot|dexie/i);
    // With the prerendered home page's part (home-prerender-head.ts): still small.
    // 2.3 KB with the post pages' snapshots (2.0 with the forum's alone).
    expect(code.length).toBeLessThan(2.5 * 1024);
    for (const name of [THEME_COOKIE, 'data-bs-theme', THEME_COLORS.dark.theme, 'manifest-dark.webmanifest', HOME_PRERENDER_OFF_CLASS])
      expect(code, name).toContain(name);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!.replace(/&#39;/g, "'");
    // The page's Content-Security-Policy allows exactly the two boot scripts inline (this one and
    // the forum-snapshot script), each by its hash, and no other.
    const boot = /<script data-entry="[^"]+">([^]*?)<\/script>/.exec(html)![1]!;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(csp).toContain(`script-src 'self' ${hash(code)} ${hash(boot)};`);
    expect(csp).not.toContain('unsafe-inline');
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toHaveLength(2);
  });

  it('runs a boot script that is one small classic script holding the names of src/db/contracts.ts and src/boot', () => {
    const code = /<script data-entry="[^"]+">([^]*?)<\/script>/.exec(html)![1]!;
    // Bundled on its own: nothing to import (a classic script cannot), no copy of the app's code.
    expect(code).not.toMatch(/\bimport\s*[({"'`*]|\bexport\b|createRoot|dexie/i);
    // 2.9 KB with the modules' preloads it starts (src/boot/module-preloads.ts); written into every page.
    expect(code.length).toBeLessThan(3.25 * 1024);
    for (const name of [
      FORUM_SNAPSHOT_COOKIE,
      FORUM_SNAPSHOT_CACHE,
      FORUM_SNAPSHOT_URL,
      SNAPSHOT_TEMPLATE_ID,
      SNAPSHOT_VIEW_ID,
      SNAPSHOT_ON_CLASS,
    ]) {
      expect(code, name).toContain(name);
    }
  });
});
