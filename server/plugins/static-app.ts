// Serves the built app from dist/: hashed assets with a long immutable cache, index.html and sw.js
// with no-cache, and every app route (a path without a file extension, outside /api) answered
// with index.html. Nothing under /api ever falls back to the page.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { shellOffHome } from '../../src/shared/app-shell';
import { apiNotFound } from './errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The Cache-Control of a file of dist/: immutable under /assets (hashed names), else no-cache. */
export function cacheControlFor(path: string): string {
  return /[\\/]assets[\\/]/.test(path) ? IMMUTABLE : 'no-cache';
}

const isAppRoute = (url: string) => {
  const path = url.split('?')[0] ?? '/';
  return !path.startsWith('/api/') && path !== '/api' && !/\.[a-z0-9]+$/i.test(path.split('/').pop() ?? '');
};

/** Reads the built page once; throws a clear error when dist/ was not built. */
export function readIndexHtml(distDir: string): string {
  try {
    return readFileSync(join(distDir, 'index.html'), 'utf8');
  } catch {
    throw new Error(`${join(distDir, 'index.html')} is missing: run \`npm run build\` first (or \`npm start\`, which builds).`);
  }
}

/** Registers the static files of `distDir` (when given) and the 404 / app-route fallback. */
export async function setupStaticApp(app: FastifyInstance, distDir: string | undefined, indexHtml: string | undefined): Promise<void> {
  if (distDir) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      // dist/api/health is the static host's answer (local-only); this server answers /api itself.
      globIgnore: ['api/**'],
      index: false,
      // The build's Brotli and gzip copies (scripts/precompress.mjs) as they are: the server no longer
      // compresses each script again per request (a file without them is compressed as before).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, path) => res.header('cache-control', cacheControlFor(path)),
    });
  }
  // `/` gets the page as built; every other app route its lighter shell (src/shared/app-shell.ts).
  const otherPages = indexHtml === undefined ? undefined : shellOffHome(indexHtml);
  app.setNotFoundHandler((request, reply) => {
    if (indexHtml !== undefined && (request.method === 'GET' || request.method === 'HEAD') && isAppRoute(request.url)) {
      const page = (request.url.split('?')[0] ?? '/') === '/' ? indexHtml : otherPages;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    }
    return reply.code(404).send(apiNotFound(request.url));
  });
}
