// Connections a client cannot hold (issue 59, item 4): a request whose headers or body do not arrive
// in time is cut off (node's headersTimeout and requestTimeout, answered 408 by clientErrorHandler),
// and one client address holds at most `perAddress` connections. Without TRUST_PROXY the peer of a
// socket is the client, so its connections are counted as they open (the one over the cap is answered
// 429 and closed before it sends anything); behind a proxy every socket is the proxy's, so the
// client's requests in flight are counted by its address as the rest of the server reads it
// (request.ip, X-Forwarded-For through the trusted proxies). A live stream is one of them.
import { STATUS_CODES } from 'node:http';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../src/shared/errors';
import { errorBody } from '../plugins/errors';
import { refuse } from './http-error';

export interface ConnectionLimits {
  /** How long a whole request (headers and body) may take to arrive, in ms (REQUEST_TIMEOUT_MS, default 120 s). */
  requestTimeoutMs: number;
  /** Connections (behind a proxy: requests in flight) one client address holds at most (MAX_CONNECTIONS_PER_ADDRESS, default 256). */
  perAddress: number;
}

/**
 * 120 s: the largest body, a 10 MB file, takes 84 s to send at 1 Mbit/s (a phone's upload on a weak
 * signal); 30 s cut such uploads off at 2.7 Mbit/s. A body sent a byte at a time is still cut off.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { requestTimeoutMs: 120_000, perAddress: 256 };

/** The headers must arrive within 10 s (a browser sends them in one packet), never later than the whole request. */
const HEADERS_TIMEOUT_MS = 10_000;

/**
 * node's server options for `limits`: its timeouts, and how often it looks for connections past
 * them (node's default, 30 s, would let a 30 s bound run to a minute).
 */
export function timeoutOptions(limits: ConnectionLimits): { headersTimeout: number; connectionsCheckingInterval: number } {
  return {
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, limits.requestTimeoutMs),
    connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(limits.requestTimeoutMs / 4))),
  };
}

/** Counts what each address holds open; `enter` says whether one more fits, and gives back its release. */
class PerAddress {
  private readonly open = new Map<string, number>();
  constructor(private readonly max: number) {}

  enter(address: string): (() => void) | undefined {
    const count = this.open.get(address) ?? 0;
    if (count >= this.max) return undefined;
    this.open.set(address, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(address) ?? 1) - 1;
      if (left <= 0) this.open.delete(address);
      else this.open.set(address, left);
    };
  }
}

/** Refuses a socket over the cap: a 429 the client can read (plain HTTP only), then closed. */
function refuseSocket(socket: Socket, tls: boolean): void {
  if (!tls) {
    const status = ERRORS.too_many_connections.status;
    const body = JSON.stringify(errorBody('too_many_connections'));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  // A client that never reads the answer does not keep the socket either.
  setTimeout(() => socket.destroy(), 1_000).unref();
}

/** Installs the per-address cap on `app` (its timeouts are set where the server is created: app.ts). */
export function capConnections(app: FastifyInstance, limits: ConnectionLimits, behindProxy: boolean, tls: boolean): void {
  const perAddress = new PerAddress(limits.perAddress);
  if (!behindProxy) {
    (app.server as Server).on('connection', (socket: Socket) => {
      const release = perAddress.enter(socket.remoteAddress ?? '');
      if (!release) return refuseSocket(socket, tls);
      socket.once('close', release);
    });
    return;
  }
  app.addHook('onRequest', async (request, reply) => {
    const release = perAddress.enter(request.ip);
    if (!release) {
      reply.header('connection', 'close');
      throw refuse('too_many_connections', undefined, { 'retry-after': '5' });
    }
    // Released when the answer is sent or the client goes (a live stream: when it ends).
    reply.raw.once('close', release);
  });
}
