// The protocol version check: a device sends the PROTOCOL_VERSION it speaks (header
// x-insight-protocol); another version than this server's is answered 409 protocol_mismatch, which
// the device shows as "reload for the new version" instead of failing on an answer it misreads.
// A request without the header (a device from before the header, curl) is served as it is.
import type { FastifyInstance } from 'fastify';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../src/shared/protocol';
import { refuse } from '../lib/http-error';

export function setupProtocolCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const spoken = request.headers[PROTOCOL_HEADER];
    if (spoken === undefined || !request.url.startsWith('/api/')) return;
    if (spoken !== String(PROTOCOL_VERSION)) throw refuse('protocol_mismatch');
  });
}
