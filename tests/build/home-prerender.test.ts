// The home page (`/`) as markup in the built page (vite.config.ts's homePrerender): painted before
// any JavaScript, kept to `/` by the head's boot script and the stylesheet.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIST, readDist } from './dist';
import { HOME_PRERENDER_ID, HOME_PRERENDER_OFF_CLASS, MODULE_PRELOADS_ATTRIBUTE } from '../../src/boot/home-prerender-names';
import { shellForPath, shellOffHome, withoutHomeMarkup } from '../../src/shared/app-shell';

const html = readDist('index.html');
const start = html.indexOf(`<div id="${HOME_PRERENDER_ID}">`);
const root = html.indexOf('<div id="root"></div>');
const markup = html.slice(start, root);
const text = markup.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the prerendered home page in index.html', () => {
  it('sits in the body before an empty #root (the service worker puts the forum snapshot before it)', () => {
    expect(start).toBeGreaterThan(html.indexOf('<body>'));
    expect(root).toBeGreaterThan(start);
    expect(html.split('<div id="root"></div>')).toHaveLength(2);
  });

  it("holds the home page's heading, its calls to action and the public header and footer as markup", () => {
    expect(markup).toMatch(/<h1 id="hero-title"[^>]*>Where research professionals exchange what really works<\/h1>/);
    expect(markup).toContain('<a class="btn btn-warning btn-lg" href="/login?mode=signup" data-discover="true">Join Now</a>');
    expect(markup).toContain('<a class="btn btn-outline-light btn-lg" href="/about" data-discover="true">About the community</a>');
    expect(markup).toContain('>Create your account</a>');
    expect(markup).toContain('>Read our story</a>');
    for (const heading of ['Everything you need to sharpen your practice', 'Ready to share your next insight?'])
      expect(text).toContain(heading);
    expect(markup).toMatch(/<header class="app-header">[^]*>Login<\/a>[^]*<\/header>/);
    expect(markup).toMatch(/<main id="main" class="app-main" tabindex="-1">[^]*<\/main>/);
    expect(markup).toMatch(/<footer class="app-footer">[^]*<\/footer>/);
  });

  it("draws a visitor's page (nobody signed in) with this build's version", () => {
    expect(text).not.toContain('Go to Forum');
    expect(markup).toMatch(/<span class="app-version" data-build="[^"]+">Version \d+\.\d+\.\d+ \([^)]+\)<\/span>/);
  });

  it('keeps to the Content-Security-Policy: no script, no style attribute, no inline handler', () => {
    expect(markup).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
  });

  it('is hidden off `/` by a rule of the stylesheet, whose class the head script sets before the first paint', () => {
    const css = readdirSync(`${DIST}/assets`).filter((file) => /^index-[\w-]+\.css$/.test(file));
    expect(css).toHaveLength(1);
    // The rule as minified (it may share its block with others): `.prerender-off #home-prerender[,…]{display:none}`.
    const rule = new RegExp(`\\.${HOME_PRERENDER_OFF_CLASS} #${HOME_PRERENDER_ID}[^{}]*\\{display:none\\}`).exec(
      readDist(`assets/${css[0]!}`),
    );
    expect(rule?.[0]).toBeDefined();
    const head = html.slice(0, html.indexOf('</head>'));
    const theme = new RegExp(`<script ${MODULE_PRELOADS_ATTRIBUTE}="[^"]+">([^]*?)</script>`).exec(head)?.[1];
    expect(theme).toBeDefined();
    expect(theme).toContain(HOME_PRERENDER_OFF_CLASS);
  });
});

describe('the shell off `/` (src/shared/app-shell.ts: what the service worker and the server answer there)', () => {
  const other = shellForPath(html, '/forum');
  const head = (page: string) => page.slice(0, page.indexOf('</head>'));
  const listed = new RegExp(`<script ${MODULE_PRELOADS_ATTRIBUTE}="([^"]+)">`).exec(html)?.[1]?.split(' ') ?? [];

  it('is the built page itself on `/`', () => {
    expect(shellForPath(html, '/')).toBe(html);
  });

  it('drops the home markup and keeps everything else of the body', () => {
    expect(other).not.toContain(`id="${HOME_PRERENDER_ID}"`);
    expect(other).not.toContain('Where research professionals exchange what really works');
    expect(other.slice(other.indexOf('<div id="root"></div>'))).toBe(html.slice(root));
    expect(other.length).toBeLessThan(html.length - markup.length + 1000);
  });

  it("turns the head script's module list into modulepreload tags, the entry first, and leaves the script's text (its CSP hash) alone", () => {
    expect(listed.length).toBeGreaterThan(1);
    expect(listed[0]).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    const tags = Array.from(head(other).matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g), (match) => match[1]);
    expect(tags).toEqual(listed);
    expect(head(other)).not.toContain(`<script ${MODULE_PRELOADS_ATTRIBUTE}=`);
    const script = (page: string) => /<script(?: [^>]*)?>(\(function[^]*?)<\/script>/.exec(head(page))?.[1];
    expect(script(other)).toBeDefined();
    expect(script(other)).toBe(script(html));
  });

  it("where a snapshot paints (the service worker's withoutHomeMarkup): drops the home markup and leaves the module list to the boot scripts", () => {
    const snapshotPage = withoutHomeMarkup(html);
    expect(snapshotPage).not.toContain(`id="${HOME_PRERENDER_ID}"`);
    expect(snapshotPage.slice(snapshotPage.indexOf('<div id="root"></div>'))).toBe(html.slice(root));
    expect(snapshotPage).not.toContain('rel="modulepreload"');
    expect(head(snapshotPage)).toContain(`<script ${MODULE_PRELOADS_ATTRIBUTE}="${listed.join(' ')}">`);
    expect(shellOffHome(html)).toBe(other);
  });
});
