// A small test client over Fastify's inject: keeps its session cookie, sends the right Origin on
// writes (or a given one), and returns status, headers and the parsed JSON body.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createSession, createUser } from '../../../server/db/members/accounts';
import type { Sql } from '../../../server/db/storage/adapter';
import { nameFromEmail, type PostStatus } from '../../../src/shared/post-rules';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, wireErrorCodeSchema, type Op, type WireReply } from '../../../src/shared/protocol';

export const ORIGIN = 'http://localhost:80';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The password of the tests' member accounts: long and uncommon, as the server asks of a new one. */
export const TEST_PASSWORD = 'quiet-harbor-7419';

/**
 * A client signed in as `email`: the admin with `password`, a member through `join` (the account made
 * on first use); throws unless the sign-in succeeded.
 */
export async function signedIn(app: FastifyInstance, email: string, password?: string): Promise<Client> {
  const client = new Client(app);
  const admin = password !== undefined && email.trim().toLowerCase().startsWith('admin@');
  const answer = admin ? await client.signIn(email, password) : await client.join(email, password);
  if (answer.status !== 200) throw new Error(`sign-in of ${email} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return client;
}

/**
 * A member with a session, written straight into the database: no sign-up and none of its password
 * hashing (a test of many members at once is not a test of signing up). Their password signs nobody in.
 */
export async function memberWithSession(app: FastifyInstance, db: Sql, email: string): Promise<Client> {
  const digits = email.split('@')[0]!.replace(/\D+/g, ' ').trim();
  const user = await createUser(db, {
    email,
    name: `${nameFromEmail(email)}${digits ? ` ${digits}` : ''}`,
    role: 'user',
    passwordHash: 'not-for-signing-in',
  });
  const client = new Client(app);
  client.cookie = `ie_session=${await createSession(db, user!.id)}`;
  return client;
}

const databases = new WeakMap<FastifyInstance, Sql>();

/** Tells the clients of `app` where its queue of emails is (support/app.ts does, for its servers). */
export function registerDatabase(app: FastifyInstance, db: Sql): void {
  databases.set(app, db);
}

function databaseOf(app: FastifyInstance): Sql {
  const db = databases.get(app);
  if (!db) throw new Error('this app was built without registerDatabase: its sign-up emails cannot be read');
  return db;
}

/** The token of the newest sign-up link queued for `email`, or undefined. */
export async function signUpToken(db: Sql, email: string): Promise<string | undefined> {
  const [row] = await db.query<{ text_body: string }>(
    `SELECT text_body FROM mail_outbox WHERE to_email = $1 AND kind = 'signup' ORDER BY id DESC LIMIT 1`,
    [email],
  );
  return row?.text_body.match(/\/confirm-email\?token=([A-Za-z0-9_-]+)/)?.[1];
}

export class Client {
  cookie?: string;

  /** `remoteAddress`: the client's address as the server sees it (default 127.0.0.1). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress?: string,
  ) {}

  async request(
    method: 'GET' | 'POST' | 'DELETE' | 'PUT',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const response = await this.app.inject({
      method,
      url,
      ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: {
        ...(method === 'GET' ? {} : { origin: ORIGIN }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
    });
    const setCookie = response.cookies.find((cookie) => cookie.name === 'ie_session');
    if (setCookie) this.cookie = setCookie.value ? `ie_session=${setCookie.value}` : undefined;
    const text = response.body;
    const body = text ? safeJson(text) : undefined;
    checkCodes(body);
    return { status: response.statusCode, headers: response.headers, body };
  }

  signIn(email: string, password = TEST_PASSWORD, mode: 'signin' | 'signup' = 'signin', name?: string): Promise<Answer> {
    return this.request('POST', '/api/session', { mode, email, password, ...(name ? { name } : {}) });
  }

  /**
   * Signs in as the member `email`, creating the account first when there is none (Sign In never
   * does): named `name`, else after the email ("jane.doe@…" is Jane Doe, "liker7@…" Liker 7), with a
   * number added when another member has that name.
   */
  async join(email: string, password = TEST_PASSWORD, name?: string): Promise<Answer> {
    // The email's digits too ("liker7@…" is Liker 7): names are unique, and tests make many alike.
    const digits = email.split('@')[0]!.replace(/\D+/g, ' ').trim();
    const base = name ?? `${nameFromEmail(email)}${digits ? ` ${digits}` : ''}`;
    for (let attempt = 0; attempt < 20; attempt++) {
      const made = await this.signIn(email, password, 'signup', attempt === 0 ? base : `${base} ${attempt + 1}`);
      // Every address gets "check your email" without a session: the emailed link makes the account
      // and signs in; an address that has an account got no link, so it signs in instead.
      if (made.status === 200 && made.body?.checkEmail) {
        const confirmed = await this.confirmSignUp(email, password);
        return confirmed?.status === 200 ? confirmed : this.signIn(email, password);
      }
      if (made.body?.error?.code !== 'name_taken') return made;
    }
    throw new Error(`no free name for ${email}`);
  }

  /**
   * Follows the newest sign-up link emailed to `email` (read from the queue of emails, as the mail
   * program would show it), which makes the account and signs this client in; undefined when no
   * link was sent (the address has an account). The link needs the password chosen at Create Account.
   */
  async confirmSignUp(email: string, password = TEST_PASSWORD): Promise<Answer | undefined> {
    const token = await signUpToken(databaseOf(this.app), email);
    return token ? this.request('POST', '/api/email/confirm', { token, password }) : undefined;
  }

  /** Pushes `ops` as a device of the current protocol version. */
  push(...ops: Op[]): Promise<Answer> {
    return this.pushAs(PROTOCOL_VERSION, ...ops);
  }

  /** Pushes `ops` as a device of `protocol` (null: without the header, as version 1). */
  pushAs(protocol: number | null, ...ops: Op[]): Promise<Answer> {
    const headers: Record<string, string> = protocol === null ? {} : { [PROTOCOL_HEADER]: String(protocol) };
    return this.request('POST', '/api/ops', { ops }, headers);
  }

  /** Creates one post (`extra`: its other fields) and returns its id (asserting it was applied). */
  async createPost(title = 'A post', extra: Record<string, unknown> = {}): Promise<number> {
    const answer = await this.push(createOp(title, extra));
    if (answer.body?.results?.[0]?.status !== 'applied') throw new Error(`create failed: ${JSON.stringify(answer.body)}`);
    return answer.body.results[0].postId as number;
  }

  /** Pulls one page; `protocol` names the version in the header (none: sent without it, as version 1). */
  pull(after = 0, limit = 1000, protocol: number | null = PROTOCOL_VERSION): Promise<Answer> {
    const headers: Record<string, string> = protocol === null ? {} : { [PROTOCOL_HEADER]: String(protocol) };
    return this.request('GET', `/api/changes?after=${after}&limit=${limit}`, undefined, headers);
  }

  /** Writes one reply to `postId` and returns it (asserting it was applied). */
  async reply(postId: number, content = 'A reply.', quoteId?: string): Promise<WireReply> {
    const answer = await this.push(replyOp(postId, content, quoteId));
    if (answer.body?.results?.[0]?.status !== 'applied') throw new Error(`reply failed: ${JSON.stringify(answer.body)}`);
    return answer.body.results[0].reply as WireReply;
  }
}

/** Every code the server sends, in an error or a push result, is one of the vocabulary's wire codes. */
function checkCodes(body: unknown): void {
  const answer = body as { error?: { code?: unknown }; results?: { code?: unknown }[] } | undefined;
  const codes = [answer?.error?.code, ...(Array.isArray(answer?.results) ? answer.results.map((result) => result.code) : [])];
  for (const code of codes) if (code !== undefined) wireErrorCodeSchema.parse(code);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const createOp = (title = 'A post', extra: Record<string, unknown> = {}): Op => ({
  id: randomUUID(),
  type: 'create',
  post: { title, content: 'Some content.', category: 'Trends', ...extra },
});
export const likeOp = (postId: number, count?: number): Op => ({ id: randomUUID(), type: 'like', postId, ...(count ? { count } : {}) });
export const reviewOp = (postId: number, type: 'approve' | 'reject' = 'approve'): Op => ({ id: randomUUID(), type, postId });
export const replyOp = (postId: number, content: unknown = 'A reply.', quoteId?: string | null): Op => ({
  id: randomUUID(),
  type: 'reply',
  postId,
  content,
  ...(quoteId === undefined ? {} : { quoteId }),
});
export const editReplyOp = (replyId: string, content: unknown = 'An edited reply.'): Op => ({
  id: randomUUID(),
  type: 'editReply',
  replyId,
  content,
});
export const deleteReplyOp = (replyId: string): Op => ({ id: randomUUID(), type: 'deleteReply', replyId });
export const hideReplyOp = (replyId: string): Op => ({ id: randomUUID(), type: 'hideReply', replyId });
export const restoreReplyOp = (replyId: string): Op => ({ id: randomUUID(), type: 'restoreReply', replyId });
export const viewOp = (postId: number): Op => ({ id: randomUUID(), type: 'view', postId });
export const editPostOp = (postId: number, base: PostStatus, post: Record<string, unknown> = {}): Op => ({
  id: randomUUID(),
  type: 'editPost',
  postId,
  base,
  post: { title: 'An edited title', content: 'Edited content.', category: 'Trends', ...post },
});
export const deletePostOp = (postId: number): Op => ({ id: randomUUID(), type: 'deletePost', postId });
export const rejectOp = (postId: number, reason?: unknown): Op => ({
  id: randomUUID(),
  type: 'reject',
  postId,
  ...(reason === undefined ? {} : { reason }),
});
export const hidePostOp = (postId: number, reason?: unknown): Op => ({
  id: randomUUID(),
  type: 'hidePost',
  postId,
  ...(reason === undefined ? {} : { reason }),
});
export const flagOp = (postId: number, replyId: string | null = null, reason: unknown = 'spam', text?: unknown): Op => ({
  id: randomUUID(),
  type: 'flag',
  postId,
  replyId,
  reason,
  ...(text === undefined ? {} : { text }),
});
export const dismissFlagsOp = (postId: number, replyId: string | null = null): Op => ({
  id: randomUUID(),
  type: 'dismissFlags',
  postId,
  replyId,
});
export const readNotificationsOp = (ids: string[]): Op => ({ id: randomUUID(), type: 'readNotifications', ids });
/** A poll of three options (A, B, C) for createOp's `extra`. */
export const POLL = { poll: { question: 'Which panel?', options: ['A', 'B', 'C'], multiple: false, closesAt: null } };
export const voteOp = (postId: number, choices: unknown = [0]): Op => ({ id: randomUUID(), type: 'vote', postId, choices });
export const closePollOp = (postId: number): Op => ({ id: randomUUID(), type: 'closePoll', postId });
export const saveOp = (postId: number, saved = true): Op => ({ id: randomUUID(), type: 'save', postId, saved });
export const setThemeOp = (theme: 'system' | 'light' | 'dark'): Op => ({ id: randomUUID(), type: 'setTheme', theme });
export const renameOp = (name: unknown): Op => ({ id: randomUUID(), type: 'rename', name });
export const followOp = (kind: unknown, target: unknown, level: unknown = 'watching'): Op =>
  ({ id: randomUUID(), type: 'follow', kind, target, level }) as Op;
export const readPostOp = (postId: unknown, readTo: unknown): Op => ({ id: randomUUID(), type: 'readPost', postId, readTo }) as Op;
export const setAutoWatchOp = (on: unknown): Op => ({ id: randomUUID(), type: 'setAutoWatch', on }) as Op;
