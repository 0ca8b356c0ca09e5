// The protocol version check: a device sends the PROTOCOL_VERSION it speaks (header
// x-insight-protocol). Any of SUPPORTED_PROTOCOL_VERSIONS is served, and put on the request as
// `protocolVersion` for the routes whose answer depends on it (a version-1 pull carries no replies);
// another version is answered 409 protocol_mismatch, which the device shows as "reload for the new
// version" instead of failing on an answer it misreads. A request without the header (a device
// from before the header, curl) is served as version 1.
import type { FastifyInstance } from 'fastify';
import { PROTOCOL_HEADER, SUPPORTED_PROTOCOL_VERSIONS } from '../../src/shared/protocol';
import { refuse } from '../lib/http-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** The protocol version this request is served in (1 without the header). */
    protocolVersion: number;
  }
}

/** The version a request without the header is served in. */
const UNNAMED_PROTOCOL_VERSION = 1;

export function setupProtocolCheck(app: FastifyInstance): void {
  app.decorateRequest('protocolVersion', UNNAMED_PROTOCOL_VERSION);
  app.addHook('onRequest', async (request) => {
    const spoken = request.headers[PROTOCOL_HEADER];
    if (spoken === undefined || !request.url.startsWith('/api/')) return;
    const version = SUPPORTED_PROTOCOL_VERSIONS.find((supported) => spoken === String(supported));
    if (version === undefined) throw refuse('protocol_mismatch');
    request.protocolVersion = version;
  });
}
