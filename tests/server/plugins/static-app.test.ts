// Serving the built app: app routes get index.html, /api never does; hashed assets are immutable,
// index.html and sw.js no-cache; compression; security headers with the page's CSP as a header.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { cspFromHtml } from '../../../server/plugins/security';
import { HOME_PRERENDER_ID, MODULE_PRELOADS_ATTRIBUTE } from '../../../src/shared/app-shell';
import { fixtureDist, FIXTURE_CSP } from '../support/fixture-dist';
import { stubDatabase } from '../support/stub-db';
import { precompress } from '../../../scripts/precompress.mjs';

describe('the built app', () => {
  let dist: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dist = fixtureDist();
    app = await buildApp({ db: stubDatabase(), adminEmail: 'admin@insightexchange.app', distDir: dist });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers app routes with index.html, no-cache, and the CSP of its meta tag as a header', async () => {
    const page = readFileSync(`${dist}/index.html`, 'utf8');
    expect(cspFromHtml(page)).toBe(FIXTURE_CSP);
    for (const url of ['/', '/forum', '/admin', '/forum/deep/link?x=1']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(page);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toBe(FIXTURE_CSP);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('never answers /api or a missing file with the page', async () => {
    for (const url of ['/api', '/api/', '/api/nothing', '/api/forum', '/missing.png', '/assets/gone-123.js']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json().error.code).toBe('no_route');
    }
  });

  it("answers GET /api/health itself, never with the build's static answer for a static host", async () => {
    const response = await app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ok: true });
  });

  it('serves hashed assets immutable and compressed, sw.js and index.html no-cache', async () => {
    const asset = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(Number(asset.headers['content-length'] ?? asset.rawPayload.length)).toBeLessThan(2000);
    for (const url of ['/sw.js', '/index.html', '/manifest.webmanifest']) {
      expect((await app.inject({ url })).headers['cache-control']).toBe('no-cache');
    }
  });
});

describe("the build's compressed copies (scripts/precompress.mjs)", () => {
  let dist: string;
  let app: FastifyInstance;
  const asset = 'assets/index-AbC123.js';
  beforeAll(async () => {
    dist = fixtureDist();
    const sizes = await precompress(dist);
    expect(sizes.length).toBe(1); // the 5 KB script; index.html, sw.js and the manifest are under 1 KB
    // Copies that say something else than the file: what arrives shows which one was sent.
    writeFileSync(join(dist, `${asset}.br`), brotliCompressSync('/* the Brotli copy */'));
    writeFileSync(join(dist, `${asset}.gz`), gzipSync('/* the gzip copy */'));
    app = await buildApp({ db: stubDatabase(), adminEmail: 'admin@insightexchange.app', distDir: dist });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the Brotli or gzip copy as built, with the headers of the file itself', async () => {
    const br = await app.inject({ url: `/${asset}`, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('/* the Brotli copy */');
    expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    const gz = await app.inject({ url: `/${asset}`, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('/* the gzip copy */');
    // No compression asked for: the file itself.
    const plain = await app.inject({ url: `/${asset}`, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(readFileSync(join(dist, asset), 'utf8'));
  });

  it('writes copies that unpack to the file, for text files of 1 KB or more only', async () => {
    const other = fixtureDist();
    try {
      await precompress(other);
      const file = readFileSync(join(other, asset));
      expect(brotliDecompressSync(readFileSync(join(other, `${asset}.br`)))).toEqual(file);
      expect(gunzipSync(readFileSync(join(other, `${asset}.gz`)))).toEqual(file);
      for (const small of ['index.html', 'sw.js', 'manifest.webmanifest', 'api/health']) {
        expect(existsSync(join(other, `${small}.br`)), small).toBe(false);
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('the built page with a prerendered home page (src/shared/app-shell.ts)', () => {
  let dist: string;
  let app: FastifyInstance;
  const built = (body: string, head: string) =>
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${FIXTURE_CSP.replace(/'/g, '&#39;')}">${head}</head><body>${body}<div id="root"></div></body></html>`;
  const script = '<script>(function(){})()</script>';
  beforeAll(async () => {
    dist = fixtureDist();
    writeFileSync(
      `${dist}/index.html`,
      built(
        `<div id="${HOME_PRERENDER_ID}"><main>Home</main></div>`,
        `<script ${MODULE_PRELOADS_ATTRIBUTE}="/assets/index-AbC123.js /assets/react-X.js">(function(){})()</script>`,
      ),
    );
    app = await buildApp({ db: stubDatabase(), adminEmail: 'admin@insightexchange.app', distDir: dist });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers / with the page as built', async () => {
    expect((await app.inject({ url: '/?from=app' })).body).toBe(readFileSync(`${dist}/index.html`, 'utf8'));
  });

  it('answers every other app route without the home markup, its modules preloaded by tags', async () => {
    const links =
      '<link rel="modulepreload" crossorigin href="/assets/index-AbC123.js">\n    <link rel="modulepreload" crossorigin href="/assets/react-X.js">\n    ';
    for (const url of ['/forum', '/about', '/posts/7?reply=2']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(built('', `${links}${script}`));
      expect(response.headers['content-security-policy']).toBe(FIXTURE_CSP);
    }
  });
});
