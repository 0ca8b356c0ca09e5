// A tiny built app in a temporary folder: index.html with a CSP meta tag, a hashed asset, sw.js,
// and the static host's api/health.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FIXTURE_CSP = "default-src 'self'; script-src 'self'; object-src 'none'";

/** Writes the fixture and returns its folder. */
export function fixtureDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ie-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${FIXTURE_CSP.replace(/'/g, '&#39;')}"><title>Fixture</title></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dir, 'manifest.webmanifest'), '{"name":"Fixture"}');
  // What a static host answers for GET /api/health (local-only); the server must answer it itself.
  mkdirSync(join(dir, 'api'));
  writeFileSync(join(dir, 'api', 'health'), '{"ok":false,"server":false}');
  return dir;
}
