// The app's client for the server's API (docs/sync-protocol.md). Every answer is checked with the
// shared zod schemas; a network failure becomes OfflineError, an error answer ServerError with the
// server's own sentence. `fetch` is injected, so tests run it against a fake server.

import type { z } from 'zod';
import {
  healthResponseSchema,
  pullResponseSchema,
  pushResponseSchema,
  sessionResponseSchema,
  errorResponseSchema,
  type Op,
  type PullResponse,
  type SessionRequest,
  type User,
} from '../shared/protocol';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** The request never reached the server (no network, server down, or a static host). */
export class OfflineError extends Error {
  override readonly name = 'OfflineError';
}

/** The server answered with an error: `code` for the program, `message` for a person. */
export class ServerError extends Error {
  override readonly name = 'ServerError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface SyncApi {
  health(): Promise<boolean>;
  signIn(request: SessionRequest): Promise<User>;
  currentUser(): Promise<User | null>;
  signOut(): Promise<void>;
  push(ops: readonly Op[]): Promise<z.infer<typeof pushResponseSchema>>;
  pull(after: number, limit: number): Promise<PullResponse>;
}

/** An API client on `base` (the app's own origin by default) through `fetchImpl`. */
export function createApi(fetchImpl: Fetch, base = ''): SyncApi {
  async function call(path: string, init: RequestInit = {}): Promise<Response> {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        credentials: 'same-origin',
        cache: 'no-store',
        ...init,
        headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
      });
    } catch (error) {
      throw new OfflineError(error instanceof Error ? error.message : 'The server could not be reached.');
    }
    if (response.ok) return response;
    const body: unknown = await response.json().catch(() => null);
    const parsed = errorResponseSchema.safeParse(body);
    // A proxy or static host in front of a missing server: the same as offline.
    if (!parsed.success && (response.status === 502 || response.status === 503 || response.status === 504)) {
      throw new OfflineError(`The server answered ${response.status}.`);
    }
    const { code, message } = parsed.success
      ? parsed.data.error
      : { code: 'http_error', message: `The server answered ${response.status}.` };
    throw new ServerError(response.status, code, message);
  }

  async function json<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success)
      throw new ServerError(response.status, 'bad_answer', 'The server sent an answer this version of the app cannot read.');
    return parsed.data;
  }

  const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });

  return {
    async health() {
      try {
        const response = await call('/api/health');
        return healthResponseSchema.safeParse(await response.json()).success;
      } catch {
        return false;
      }
    },
    async signIn(request) {
      return (await json(await call('/api/session', post(request)), sessionResponseSchema)).user;
    },
    async currentUser() {
      try {
        return (await json(await call('/api/session'), sessionResponseSchema)).user;
      } catch (error) {
        if (error instanceof ServerError && error.status === 401) return null;
        throw error;
      }
    },
    async signOut() {
      await call('/api/session', { method: 'DELETE' });
    },
    async push(ops) {
      return json(await call('/api/ops', post({ ops })), pushResponseSchema);
    },
    async pull(after, limit) {
      return json(await call(`/api/changes?after=${after}&limit=${limit}`), pullResponseSchema);
    },
  };
}
