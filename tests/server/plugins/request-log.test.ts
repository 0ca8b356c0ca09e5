// One log line per request, once it is answered (docs/server.md, LOG_LEVEL), not Fastify's two
// ("incoming request", "request completed"): method, path without its query, status and time.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { stubDatabase } from '../support/stub-db';

describe('the request log', () => {
  it('writes one line per request, when it is answered: method, path without the query, status and time', async () => {
    const entries: Record<string, unknown>[] = [];
    const stream = { write: (text: string) => void entries.push(JSON.parse(text) as Record<string, unknown>) };
    const app = await buildApp({ db: stubDatabase(), adminEmail: 'admin@example.com', logger: { level: 'info', stream } });
    try {
      expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/nothing?token=abc' })).statusCode).toBe(404);
      const perRequest = entries.filter((entry) => entry.reqId !== undefined);
      expect(perRequest).toHaveLength(2);
      expect(perRequest[0]).toMatchObject({ level: 30, msg: 'request completed', method: 'GET', url: '/api/health', statusCode: 200 });
      expect(perRequest[1]).toMatchObject({ method: 'GET', url: '/api/nothing', statusCode: 404 });
      for (const entry of perRequest) expect(entry.responseTime).toEqual(expect.any(Number));
      expect(JSON.stringify(entries)).not.toContain('token=abc');
    } finally {
      await app.close();
    }
  });
});
