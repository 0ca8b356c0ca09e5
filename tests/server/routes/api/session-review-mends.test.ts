// Mends from the review of the security work: parallel guesses are held to the limit, a client
// behind TRUST_PROXY cannot choose its own address, IPv6 clients count per /64, and a database
// that is only briefly unable to work answers 503 (the device retries) rather than a failure that
// would count against an operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrustProxy } from '../../../../server/config';
import { databaseUnavailable } from '../../../../server/plugins/errors';
import { clientKey } from '../../../../server/routes/api/session';
import { Client } from '../../support/client';
import { ADMIN_EMAIL } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

describe('the sign-in limit under parallel guesses', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite');
  });
  afterAll(() => server.close());

  it('30 wrong passwords sent at once from one address: 10 are checked, 20 answered 429', async () => {
    const attacker = '203.0.113.9';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) => new Client(server.app, attacker).signIn(ADMIN_EMAIL, `guess-${attempt}`)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(20).fill(429)]);
  });
});

describe('behind TRUST_PROXY', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite', { trustProxy: readTrustProxy('1') });
  });
  afterAll(() => server.close());

  it('the client address is the one the proxy added, not a left-most one the client wrote', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      // Each guess claims another address; the proxy (here, the test) appends the real one.
      const answer = await new Client(server.app, '127.0.0.1').request(
        'POST',
        '/api/session',
        { mode: 'signin', email: ADMIN_EMAIL, password: `guess-${attempt}` },
        { 'x-forwarded-for': `6.6.6.${attempt}, 203.0.113.5` },
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  });

  it('reads TRUST_PROXY as a hop count or the proxies’ addresses, and refuses anything else', () => {
    expect(readTrustProxy(undefined)).toBe(false);
    expect(readTrustProxy('0')).toBe(false);
    expect(readTrustProxy('true')).toBe(1);
    expect(readTrustProxy('2')).toBe(2);
    expect(readTrustProxy('127.0.0.2, 127.0.1.0/24')).toEqual(['127.0.0.2', '127.0.1.0/24']);
    expect(() => readTrustProxy('everyone')).toThrow(/TRUST_PROXY must be/);
  });
});

describe('who counts as one client', () => {
  it('an IPv4 address as it is; an IPv6 one by its /64; a mapped IPv4 as IPv4', () => {
    expect(clientKey('203.0.113.5')).toBe('203.0.113.5');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:bbbb::9')).toBe('2001:db8:1:2::/64');
    expect(clientKey('::ffff:198.51.100.4')).toBe('198.51.100.4');
  });
});

describe('a database briefly unable to work', () => {
  it.each([
    ['53100', 'disk full'],
    ['53300', 'too many connections'],
    ['40P01', 'deadlock'],
    ['40001', 'serialization failure'],
    ['57014', 'statement timeout'],
    ['25006', 'read-only after a failover'],
    ['08006', 'connection failure'],
  ])('%s (%s) is "unavailable": 503, retried later', (code) => {
    expect(databaseUnavailable({ code })).toBe(true);
  });

  it.each([['23514'], ['22021'], ['42P01'], ['XX000']])('%s is a fault of the request or a bug', (code) => {
    expect(databaseUnavailable({ code })).toBe(false);
  });
});
