// Reads what `npm run build` wrote to dist/: files, the page's initial assets, the precache list.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { MODULE_PRELOADS_ATTRIBUTE } from '../../src/boot/home-prerender-names';

export const DIST = join(process.cwd(), 'dist');

export function distFile(path: string): string {
  const file = join(DIST, path.replace(/^\//, ''));
  if (!existsSync(file)) throw new Error(`${path} is missing from dist/: run npm run build first`);
  return file;
}

export const readDist = (path: string): string => readFileSync(distFile(path), 'utf8');
export const sizeOf = (path: string): number => statSync(distFile(path)).size;
export const gzipSizeOf = (path: string): number => gzipSync(readFileSync(distFile(path)), { level: 9 }).length;

export interface PrecacheEntry {
  url: string;
  revision: string | null;
}

/** The precache manifest that the build injected into sw.js. */
export function precacheEntries(): PrecacheEntry[] {
  const source = readDist('sw.js');
  // The injected list is JSON: objects with a "url" and a "revision" (null for hashed names).
  const objects = source.match(/\{"(?:revision|url)":[^{}]*\}/g) ?? [];
  const entries = objects.map((text) => JSON.parse(text) as PrecacheEntry).filter((entry) => typeof entry.url === 'string');
  if (entries.length === 0) throw new Error('No precache manifest found in dist/sw.js');
  return entries;
}

/**
 * Scripts and styles the page loads before anything else: every script tag, the preloaded modules
 * (as tags, or as the list the head's boot script preloads: MODULE_PRELOADS_ATTRIBUTE), the CSS.
 */
export function initialAssets(): { scripts: string[]; styles: string[] } {
  const html = readDist('index.html');
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  const scripts = tags
    .filter((tag) => tag.startsWith('<script') || tag.includes('rel="modulepreload"'))
    .map((tag) => attr(tag, 'src') ?? attr(tag, 'href'))
    .filter((path): path is string => Boolean(path));
  for (const tag of tags) scripts.push(...(attr(tag, MODULE_PRELOADS_ATTRIBUTE)?.split(' ') ?? []));
  const styles = tags
    .filter((tag) => tag.includes('rel="stylesheet"'))
    .map((tag) => attr(tag, 'href'))
    .filter((path): path is string => Boolean(path));
  return { scripts, styles };
}
