// The app's client for the server's API (docs/sync-protocol.md). Every answer is checked with the
// shared zod schemas; a network failure becomes the `offline` DataError, an error answer a DataError
// with the server's code, status and own sentence. `fetch` is injected: tests run it against the
// real server in-process. Every request says which PROTOCOL_VERSION this build speaks.

import type { z } from 'zod';
import { insightsSchema, type Insights } from '../shared/insights-schema';
import type { MemberProfile } from '../shared/members';
import { suspensionMessage } from '../shared/errors';
import { DataError, isDataError } from '../db/storage/errors';
import { forumPagePath, requestInit, takeEarly, type ForumPageQuery } from './early';
import {
  adminMemberDetailSchema,
  adminMembersResponseSchema,
  healthResponseSchema,
  type limitRuleSchema,
  limitsResponseSchema,
  memberProfileSchema,
  staffLogPageSchema,
  type AdminMember,
  type AdminMemberDetail,
  type StaffLogPage,
  searchResponseSchema,
  type SearchResponse,
  forumPageSchema,
  type ForumPage,
  pullResponseSchema,
  pushResponseSchema,
  sessionResponseSchema,
  signInResponseSchema,
  errorResponseSchema,
  type Op,
  type PullResponse,
  type PushResponse,
  type SessionRequest,
  type SessionUser,
} from '../shared/protocol';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** The request never reached the server (no network, server down, or a static host): code `offline`. */
const offlineError = (detail?: string) => new DataError('offline', detail ? { message: detail } : {});

/** The server answered with an error: its code, and its own sentence (shown as is for a code this build does not know). */
const serverError = (status: number, code: string, message: string, retryAfterMs?: number) =>
  new DataError(code, { status, message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });

/** A Retry-After header in seconds, as ms (undefined when absent or not a number of seconds). */
const retryAfterOf = (response: Response): number | undefined => {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
};

/** True for an error that means the server was not reached (retry later, as offline). */
/** The 401s that say why the session ended. */
const ENDED_WITH_REASON = ['password_changed', 'session_revoked', 'account_deleted', 'sso_removed'] as const;

export const isOffline = (error: unknown) => isDataError(error, 'offline');

/** True for an error the server answered (it carries an HTTP status). */
export const isServerError = (error: unknown): error is DataError => isDataError(error) && error.status !== undefined;

/**
 * Runs `work`, a sign-in that only the server can do (the organisation's, a passkey's): when the
 * device is offline it fails as `code` ("You're offline. Signing in with … needs a connection."), as
 * a password sign-in on a new device says `offline_sign_in`. Nothing is sent when the browser already
 * knows it is offline.
 */
export async function needsConnection<T>(code: 'offline_sso' | 'offline_passkey', work: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) throw new DataError(code);
  try {
    return await work();
  } catch (error) {
    if (isOffline(error)) throw new DataError(code, { cause: error });
    throw error;
  }
}

/** Sign In's answer on the device: the member, and the window's first page when the request asked for it (`firstPage`). */
export type SignedIn = SessionUser & { firstPage?: ForumPage };

export interface SyncApi {
  health(): Promise<boolean>;
  signIn(request: SessionRequest): Promise<SignedIn>;
  currentUser(): Promise<SessionUser | null>;
  signOut(): Promise<void>;
  push(ops: readonly Op[]): Promise<PushResponse>;
  /** `postsAfter`: a window's first sync, a post's rows only above it (issue 44). */
  pull(after: number, limit: number, postsAfter?: number): Promise<PullResponse>;
  /** GET /api/posts (issue 44): a page of the forum, newest first. Optional like insights: without it a device syncs the whole forum. */
  posts?(query: ForumPageQuery): Promise<ForumPage>;
  /** GET /api/posts/:id (issue 44): one post and its replies (`not_found` when there is none). Optional like insights. */
  post?(id: number, after?: number): Promise<ForumPage>;
  /** GET /api/insights (admins). Optional: the engine never needs it, and test doubles may leave it out. */
  insights?(): Promise<Insights>;
  /** GET /api/search (protocol 5): the server's ranked full-text search. Optional like insights. */
  search?(query: string, category: string, limit?: number, after?: number): Promise<SearchResponse>;
  /** GET /api/members/:id (protocol 5): a member's page. Optional like insights. */
  member?(id: string): Promise<MemberProfile>;
  /** Admins (protocol 6): the Members tab's reads, the staff log and the member limits. Optional like insights. */
  adminMembers?(query: string): Promise<AdminMember[]>;
  adminMember?(id: string): Promise<AdminMemberDetail>;
  staffLog?(before?: number): Promise<StaffLogPage>;
  limits?(): Promise<LimitsAnswer>;
  setLimits?(limits: Record<string, LimitRuleShape>): Promise<LimitsAnswer>;
  /** PUT /api/attachments/:sha256 (issue 42): a file's bytes, before the operation that names it. Optional like insights. */
  upload?(sha256: string, blob: Blob, name: string): Promise<void>;
  /** Any other JSON route (the account routes of issue 41): its answer checked with `schema` (none: 204). Optional like insights. */
  send?<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body: unknown, schema: z.ZodType<T> | null): Promise<T>;
}

/** What GET /api/posts asks: `part` newest (default) or kept, older than `before`, of one category; `after`: the device's cursor (a replica may answer). */
export type { ForumPageQuery };

/** GET /api/admin/limits: each limit now, and its default. */
export type LimitsAnswer = z.infer<typeof limitsResponseSchema>;
export type LimitRuleShape = z.infer<typeof limitRuleSchema>;

/** An API client on `base` (the app's own origin by default) through `fetchImpl`. */
export function createApi(fetchImpl: Fetch, base = ''): SyncApi {
  async function call(path: string, init: RequestInit = {}): Promise<Response> {
    let response: Response;
    try {
      // A GET the page sent early (./early.ts), before this code had loaded, is answered by that request.
      const early = base === '' && (init.method ?? 'GET') === 'GET' ? takeEarly(path) : undefined;
      const ask = () => fetchImpl(`${base}${path}`, requestInit(init));
      response = early ? await early.catch(ask) : await ask();
    } catch {
      throw offlineError();
    }
    if (response.ok) return response;
    const body: unknown = await response.json().catch(() => null);
    const parsed = errorResponseSchema.safeParse(body);
    // A proxy or static host in front of a missing server: the same as offline.
    if (!parsed.success && (response.status === 502 || response.status === 503 || response.status === 504)) {
      throw offlineError(`The server answered ${response.status}.`);
    }
    const { code, message: said } = parsed.success
      ? parsed.data.error
      : { code: 'bad_answer', message: `The server answered ${response.status}.` };
    // A suspension's end in the reader's time zone and format (the server can only word it in UTC).
    const until = parsed.success ? parsed.data.error.until : undefined;
    const message =
      code === 'suspended' && until !== undefined
        ? suspensionMessage(until, parsed.success ? (parsed.data.error.reason ?? null) : null)
        : said;
    throw serverError(response.status, code, message, retryAfterOf(response));
  }

  async function json<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new DataError('bad_answer', { status: response.status });
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
      const answer = await json(await call('/api/session', post(request)), signInResponseSchema);
      // Create Account with an address that has an account: "check your email", and no session.
      // Two-step verification (issue 63): the password was right, and a code is asked for next
      // (sync/two-step.ts sends it); no session yet.
      if (answer.twoStep) throw new DataError('two_step_needed');
      if (!answer.user) throw new DataError('check_email');
      return answer.firstPage ? { ...answer.user, firstPage: answer.firstPage } : answer.user;
    },
    async send<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body: unknown, schema: z.ZodType<T> | null): Promise<T> {
      const response = await call(path, body === undefined ? { method } : { method, body: JSON.stringify(body) });
      return schema ? json(response, schema) : (undefined as T);
    },
    async currentUser() {
      try {
        return (await json(await call('/api/session'), sessionResponseSchema)).user;
      } catch (error) {
        // Signed out, plainly; a session ended with a reason (a new password, from another device,
        // the account deleted) is thrown as it came, so the device says the true one (issue 59).
        if (isServerError(error) && error.status === 401 && !ENDED_WITH_REASON.some((code) => error.code === code)) return null;
        throw error;
      }
    },
    async signOut() {
      await call('/api/session', { method: 'DELETE' });
    },
    async upload(sha256, blob, name) {
      await call(`/api/attachments/${sha256}`, {
        method: 'PUT',
        body: blob,
        headers: { 'content-type': 'application/octet-stream', 'x-file-name': encodeURIComponent(name) },
      });
    },
    async push(ops) {
      return json(await call('/api/ops', post({ ops })), pushResponseSchema);
    },
    async pull(after, limit, postsAfter) {
      const window = postsAfter === undefined ? '' : `&postsAfter=${postsAfter}`;
      return json(await call(`/api/changes?after=${after}&limit=${limit}${window}`), pullResponseSchema);
    },
    async posts(query) {
      return json(await call(forumPagePath(query)), forumPageSchema);
    },
    async post(id, after) {
      return json(await call(`/api/posts/${id}${after === undefined ? '' : `?after=${after}`}`), forumPageSchema);
    },
    async insights() {
      return json(await call('/api/insights'), insightsSchema);
    },
    async search(query, category, limit, after) {
      const params = new URLSearchParams({
        q: query,
        category,
        ...(limit === undefined ? {} : { limit: String(limit) }),
        ...(after === undefined ? {} : { after: String(after) }),
      });
      return json(await call(`/api/search?${params.toString()}`), searchResponseSchema);
    },
    async member(id) {
      return json(await call(`/api/members/${encodeURIComponent(id)}`), memberProfileSchema);
    },
    async adminMembers(query) {
      return (await json(await call(`/api/admin/members?${new URLSearchParams({ q: query }).toString()}`), adminMembersResponseSchema))
        .members;
    },
    async adminMember(id) {
      return json(await call(`/api/admin/members/${encodeURIComponent(id)}`), adminMemberDetailSchema);
    },
    async staffLog(before) {
      return json(await call(`/api/admin/log${before === undefined ? '' : `?before=${before}`}`), staffLogPageSchema);
    },
    async limits() {
      return json(await call('/api/admin/limits'), limitsResponseSchema);
    },
    async setLimits(limits) {
      return json(await call('/api/admin/limits', { method: 'PUT', body: JSON.stringify({ limits }) }), limitsResponseSchema);
    },
  };
}
