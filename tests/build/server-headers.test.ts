// The server in front of the real build: its Content-Security-Policy header is exactly the one in
// dist/index.html's meta tag, and the page and the service worker are never cached stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { stubDatabase } from '../server/support/stub-db';
import { DIST, readDist } from './dist';

describe('the server on dist/', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ db: stubDatabase(), adminEmail: 'admin@insightexchange.app', distDir: DIST });
  });
  afterAll(() => app.close());

  it('sends the meta tag’s CSP as a header, equal to the letter', async () => {
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(readDist('index.html'))?.[1]?.replace(/&#39;/g, "'");
    expect(meta).toContain("default-src 'self'");
    const response = await app.inject({ url: '/forum' });
    expect(response.headers['content-security-policy']).toBe(meta);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect((await app.inject({ url: '/sw.js' })).headers['cache-control']).toBe('no-cache');
  });
});
