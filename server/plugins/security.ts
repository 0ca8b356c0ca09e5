// Security headers (helmet) with the Content-Security-Policy of the built index.html sent as a
// header too, the Host check on every request (a name that is not this server's, as DNS rebinding
// sends, is refused with 421), the Origin check on every write (a write whose Origin is not this
// server's own origin is refused before any route runs), a depth limit on JSON bodies, and HSTS over https only.
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HostNames } from '../lib/host-names';
import { refuse } from '../lib/http-error';
import { nestsDeeperThan } from '../lib/json-depth';

/** The CSP of the page's meta tag, or undefined when the page has none. */
export function cspFromHtml(html: string): string | undefined {
  const tag = /<meta[^>]*http-equiv="Content-Security-Policy"[^>]*>/i.exec(html)?.[0];
  const content = tag ? /content="([^"]*)"/i.exec(tag)?.[1] : undefined;
  return content
    ?.replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** The API-only policy, used when no built app is served. */
export const API_ONLY_CSP = "default-src 'none'; frame-ancestors 'none'";

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The one write taken from any origin (see the Origin check). */
export const ONE_CLICK_PATH = '/api/email/unsubscribe';

/** This request's own origin: scheme, host and port (forwarded ones under TRUST_PROXY). */
export const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** HSTS, sent only over https (a browser ignores it over plain http, and a mixed setup must not be told to insist). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Registers helmet, the Host check, the Origin check, and JSON bodies parsed only when they nest at
 * most MAX_JSON_DEPTH deep; `csp` is sent as the Content-Security-Policy header.
 */
export async function setupSecurity(app: FastifyInstance, csp: string, hosts: HostNames): Promise<void> {
  await app.register(helmet, { contentSecurityPolicy: false, strictTransportSecurity: false, global: true });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string)) return done(refuse('too_deep'), undefined);
    parseJson(request, body as string, done);
  });
  const warned = new Set<string>();
  app.addHook('onRequest', async (request, reply) => {
    reply.header('content-security-policy', csp);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    if (!hosts.allows(request.host)) {
      // Said once per name, so the operator of a server reached under a new name learns why.
      if (warned.size < 100 && !warned.has(request.host)) {
        warned.add(request.host);
        request.log.warn(
          { host: request.host.slice(0, 200) },
          'refused a request for a name that is not this server’s (see PUBLIC_ORIGIN)',
        );
      }
      throw refuse('bad_host');
    }
    if (SAFE_METHODS.has(request.method)) return;
    // RFC 8058's one-click unsubscribe is posted by mail programs from their own servers, with no
    // Origin: its token (in the URL) is its authority, and all it can do is stop notification emails.
    if (request.url.split('?')[0] === ONE_CLICK_PATH) return;
    if (request.headers.origin !== ownOrigin(request)) {
      throw refuse('bad_origin');
    }
  });
}
