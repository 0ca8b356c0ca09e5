// The forum's real server for the sync tests, in this process: the Fastify app of server/app.ts on
// a PGlite cloned from the run's dump (one database per test file, emptied before each test, and a
// new app per test). Each device reaches it through a `fetch` of its own that behaves like a
// browser's on the app's origin: its own cookies, Origin on writes, and a network that can fail.
// Server-side setup goes through the API as other people on other browsers (`member`, `admin`,
// `addPost`). Accounts and sessions that a test only needs to exist are made with the server's own
// functions (db/accounts.ts): a sign-in through the API costs a scrypt hash, and the sign-in itself
// is what auth.test.ts tests. Only what no request can do (ending a member's sessions) and bulk
// setup touch the tables directly.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { buildApp, type AppOptions } from '../../../server/app';
import { RELAXED_LIMITS } from '../../server/support/limits';
import type { Database } from '../../../server/db/storage/adapter';
import { createSession, createUser, findUser, type UserRow } from '../../../server/db/members/accounts';
import { changeHead } from '../../../server/db/sync/changes';
import { openPglite } from '../../../server/db/storage/pglite';
import { toWirePost } from '../../../server/db/posts/post-rows';
import { withAuthors } from '../../../server/db/members/authors';
import { startUp } from '../../../server/db/storage/startup';
import { hashPassword } from '../../../server/lib/passwords';
import { SESSION_COOKIE } from '../../../server/plugins/session';
import { DEFAULT_ADMIN_EMAIL, nameFromEmail, type NewPostFields as NewPost, type PostStatus } from '../../../src/shared/post-rules';
import type { Op, OpResult, WirePost } from '../../../src/shared/protocol';
import { createApi, type Fetch, type SyncApi } from '../../../src/sync/api';
import { DEFAULT_CATEGORIES } from '../../../src/shared/categories';
import { nameKey } from '../../../src/shared/names';

/** The app's origin as the browser sees it (the server accepts localhost as its own host). */
export const ORIGIN = 'http://localhost';
export const ADMIN_PASSWORD = 'admin-pass';
/** Every other account's password, unless a test says otherwise. */
export const PASSWORD = 'secret';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const NO_BODY = new Set([101, 204, 205, 304]);

/** What the network does to one request: lose it before the server sees it, or lose the answer after. */
export type Fault = 'unreachable' | 'answer-lost' | undefined;

/** Someone on another device (another browser), signed in: the way tests change the server meanwhile. */
export class Member {
  constructor(
    readonly email: string,
    readonly api: SyncApi,
  ) {}

  async push(...ops: Op[]): Promise<OpResult[]> {
    return (await this.api.push(ops)).results;
  }

  /** Sends one operation and returns the post it changed; throws unless it was applied. */
  async apply(op: Op): Promise<WirePost> {
    const [result] = await this.push(op);
    if (result?.status !== 'applied' || !result.post) throw new Error(`${op.type} was not applied: ${JSON.stringify(result)}`);
    return result.post;
  }

  create(post: Partial<NewPost> = {}): Promise<WirePost> {
    return this.apply({
      id: randomUUID(),
      type: 'create',
      post: { title: 'A post', content: 'Some content.', category: 'Trends', ...post },
    });
  }

  like(postId: number, count = 1): Promise<WirePost> {
    return this.apply({ id: randomUUID(), type: 'like', postId, ...(count > 1 ? { count } : {}) });
  }

  approve(postId: number): Promise<WirePost> {
    return this.apply({ id: randomUUID(), type: 'approve', postId });
  }

  reject(postId: number): Promise<WirePost> {
    return this.apply({ id: randomUUID(), type: 'reject', postId });
  }
}

export interface ServerPost extends Partial<NewPost> {
  status?: PostStatus;
  likes?: number;
  /** Whose post it is (their account signs in, or is made, on first use). */
  authorEmail?: string;
}

export class TestServer {
  /** The network of every device: down, each request fails as a browser's fetch does. */
  down = false;
  /** Decides the fate of each device request while the network is up (a page lost mid-pull…). */
  fault?: (request: { method: string; url: URL }) => Fault;
  /** Every request a device made that reached the server, as "METHOD /path" (not the helpers'). */
  readonly requests: string[] = [];
  private readonly people = new Map<string, Promise<Member>>();
  private posted = 0;

  constructor(
    readonly app: FastifyInstance,
    readonly db: Database,
    readonly adminEmail: string,
    readonly adminPassword: string,
  ) {}

  /** The password of `email` on this server. */
  passwordOf(email: string): string {
    return email === this.adminEmail ? this.adminPassword : PASSWORD;
  }

  /** A new browser on the app's origin, for a device under test: logged, and subject to `down` and `fault`. */
  device(): Fetch {
    return this.browser(true, new Map());
  }

  /** A device's browser that signed in as `email` earlier: it holds a live session cookie. */
  async signedInDevice(email: string): Promise<Fetch> {
    return this.browser(true, await this.sessionCookie(email));
  }

  /** `email`'s account, made as a first sign-in makes it (named after the email) when there is none yet. */
  async account(email: string): Promise<UserRow> {
    const known = await findUser(this.db, email);
    if (known) return known;
    const passwordHash = await hashOf(this.passwordOf(email));
    const made = await createUser(this.db, { email, name: nameFromEmail(email), role: 'user', passwordHash });
    return made!;
  }

  /** `email` signed in on a browser of their own. */
  member(email: string): Promise<Member> {
    let member = this.people.get(email);
    if (!member) {
      member = this.sessionCookie(email).then((cookies) => new Member(email, createApi(this.browser(false, cookies))));
      this.people.set(email, member);
    }
    return member;
  }

  /** The admin, signed in on another browser of their own. */
  admin(): Promise<Member> {
    return this.member(this.adminEmail);
  }

  /** A post as if written and reviewed earlier, and liked `likes` times: created, reviewed and liked through the API. */
  async addPost({ status = 'approved', likes = 0, authorEmail = 'someone@example.com', ...post }: ServerPost = {}): Promise<WirePost> {
    this.posted += 1;
    const author = await this.member(authorEmail);
    const created = await author.create({ title: `Server post ${this.posted}`, content: 'Content from the server.', ...post });
    if (status !== 'pending') {
      const admin = await this.admin();
      await (status === 'approved' ? admin.approve(created.id) : admin.reject(created.id));
    }
    for (let left = likes; left > 0; left -= 1_000) await (await this.member('fan@example.com')).like(created.id, Math.min(left, 1_000));
    return (await this.post(created.id))!;
  }

  /**
   * `count` approved posts by someone, written straight into the database in one statement, one
   * change number each. Through the API, 2,500 creates and approvals are 5,000 transactions (and
   * even one INSERT per post takes seconds in PGlite): setup for a test about pulling them.
   */
  async insertApprovedPosts(count: number): Promise<void> {
    await this.db.query(
      `WITH head AS (
         UPDATE change_head SET seq = seq + $1, last_post_id = GREATEST(last_post_id, $2) + $1
         RETURNING seq - $1 AS seq, last_post_id - $1 AS id
       )
       INSERT INTO posts (id, title, content, category, author, author_email, author_role, date, status, seq)
       SELECT head.id + n, 'Server post ' || n, 'Content from the server.', 'Trends', 'Someone', 'someone@example.com', 'user',
         '1 hour ago', 'approved', head.seq + n
       FROM head, generate_series(1, $1::int) AS n`,
      [count, Date.now()],
    );
  }

  /** The server's copy of a post (read from its database). */
  async post(id: number): Promise<WirePost | undefined> {
    const [row] = await this.db.query('SELECT * FROM posts WHERE id = $1', [id]);
    return row && toWirePost((await withAuthors(this.db, [row]))[0]!, true, String(row.author_email));
  }

  /** Every post on the server, in change order. */
  async posts(): Promise<WirePost[]> {
    const rows = await withAuthors(this.db, await this.db.query('SELECT * FROM posts ORDER BY seq'));
    return rows.map((row) => toWirePost(row, true, String(row.author_email)));
  }

  /** The server's newest change number. */
  head(): Promise<number> {
    return changeHead(this.db);
  }

  /** Ends every session of `email` on the server (as a password reset does): no request can do it for another browser. */
  async endSessions(email: string): Promise<void> {
    await this.db.query('DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = $1)', [email]);
  }

  /** A cookie jar holding a new session of `email` (its account made if need be). */
  private async sessionCookie(email: string): Promise<Map<string, string>> {
    const { id } = await this.account(email);
    return new Map([[SESSION_COOKIE, await createSession(this.db, id)]]);
  }

  /** A browser's fetch: its cookie jar, the Host of the app's origin, Origin on writes as browsers send it. */
  private browser(underTest: boolean, cookies: Map<string, string>): Fetch {
    return async (input, init = {}) => {
      const url = new URL(input, ORIGIN);
      const method = (init.method ?? 'GET').toUpperCase();
      const fault: Fault = underTest ? (this.down ? 'unreachable' : this.fault?.({ method, url })) : undefined;
      if (fault === 'unreachable') throw new TypeError('Failed to fetch');
      const headers: Record<string, string> = { ...Object.fromEntries(new Headers(init.headers)), host: url.host };
      if (!SAFE_METHODS.has(method)) headers.origin = ORIGIN;
      if (cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const answer = await this.app.inject({
        method: method as HTTPMethods,
        url: `${url.pathname}${url.search}`,
        headers,
        ...(typeof init.body === 'string' ? { payload: init.body } : {}),
        ...(init.body instanceof Blob ? { payload: Buffer.from(await init.body.arrayBuffer()) } : {}),
      });
      if (underTest) this.requests.push(`${method} ${url.pathname}`);
      if (fault === 'answer-lost') throw new TypeError('Failed to fetch');
      for (const { name, value, expires, maxAge } of answer.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
        const gone = value === '' || (maxAge !== undefined && maxAge <= 0) || (expires !== undefined && expires.getTime() <= Date.now());
        if (gone) cookies.delete(name);
        else cookies.set(name, value);
      }
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        // A page's script never sees Set-Cookie.
        if (name === 'set-cookie' || value === undefined) continue;
        for (const one of [value].flat()) responseHeaders.append(name, String(one));
      }
      return new Response(NO_BODY.has(answer.statusCode) ? null : new Uint8Array(answer.rawPayload), {
        status: answer.statusCode,
        headers: responseHeaders,
      });
    };
  }
}

export interface ServerOptions {
  /** Keep the sample posts the server creates in an empty database (by default the forum starts empty). */
  samples?: boolean;
  /** The server's ADMIN_EMAIL (DEFAULT_ADMIN_EMAIL by default) and that account's password. */
  adminEmail?: string;
  adminPassword?: string;
  /** The server's sign-in limits (AppOptions.limits). */
  limits?: AppOptions['limits'];
  /** A member's limits (default: relaxed, out of the way; the limit tests give DEFAULT_LIMITS). */
  memberLimits?: AppOptions['memberLimits'];
  /** The database as the server sees it, wrapped (to make it fail as a fault would). */
  database?: (db: Database) => Database;
}

let database: Promise<Database> | undefined;
let running: TestServer | undefined;
const hashes = new Map<string, Promise<string>>();

/** One scrypt hash per password per file: a real one, so a sign-in with that password still works. */
function hashOf(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
}

afterEach(async () => {
  const server = running;
  running = undefined;
  await server?.app.close();
});

afterAll(async () => {
  await (await database)?.close();
});

// Opened before the file's first test, under a hook's own time: on a busy machine the clone and the
// start-up take seconds, which the first test (its 30 s) should not pay.
beforeAll(async () => {
  await fileDatabase();
}, 120_000);

/** This file's database: a clone of the run's dump, migrated, seeded and given its admin by the server's own start-up. */
function fileDatabase(): Promise<Database> {
  database ??= (async () => {
    const db = await openPglite({ loadDataDir: new Blob([readFileSync(inject('unitPgliteDump'))]) });
    await startUp(db, { adminEmail: DEFAULT_ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, log: () => undefined });
    return db;
  })();
  return database;
}

/**
 * This test's server: no posts (or the samples), no accounts but the admin, no sessions. Change
 * numbers and post ids keep growing from the previous test, as they would on a server that lives on.
 */
export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  if (running) throw new Error('One server per test: pass it to each device.');
  const { samples = false, adminEmail = DEFAULT_ADMIN_EMAIL, adminPassword = ADMIN_PASSWORD } = options;
  const db = await fileDatabase();
  await db.query(
    'TRUNCATE posts, poll_votes, post_search, deleted_posts, replies, reply_search, post_views, ops, sessions, staff_log, rate_buckets, rate_limit_settings, attachments, attachment_blobs, attachment_uploads',
  );
  // Spaces and messages (issue 61): none from a previous test, and the six categories as a new server has them.
  await db.query('TRUNCATE message_flags, messages, conversation_members, conversations, group_members, groups');
  await db.query('DELETE FROM categories WHERE NOT (id = ANY($1::text[]))', [DEFAULT_CATEGORIES.map((category) => category.id)]);
  for (const category of DEFAULT_CATEGORIES) {
    await db.query(
      `UPDATE categories SET name = id, name_key = $2, description = '', position = $3, archived = false, see_groups = NULL,
         post_groups = NULL, seq = 0 WHERE id = $1`,
      [category.id, nameKey(category.name), category.position],
    );
  }
  await db.query('DELETE FROM users WHERE email <> $1', [DEFAULT_ADMIN_EMAIL]);
  // The admin stays, with no decision of a previous test.
  await db.query('UPDATE users SET suspended_until = NULL, suspend_reason = NULL, silenced = false, closed_at = NULL');
  await db.query('UPDATE change_head SET seeded = $1', [!samples]);
  // The server's own start-up seeds the samples into the empty forum and makes another admin account.
  if (samples || adminEmail !== DEFAULT_ADMIN_EMAIL) await startUp(db, { adminEmail, adminPassword, log: () => undefined });
  const seen = options.database ? options.database(db) : db;
  const app = await buildApp({ db: seen, adminEmail, limits: options.limits, memberLimits: options.memberLimits ?? RELAXED_LIMITS });
  running = new TestServer(app, db, adminEmail, adminPassword);
  return running;
}
