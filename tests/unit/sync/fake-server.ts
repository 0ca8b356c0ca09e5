// A fake of the forum's server for unit tests: the protocol of docs/sync-protocol.md in memory
// (accounts, operations applied at most once, visibility, change numbers, paged pulls), reached
// through a `fetch` per device. `down` makes every request fail as if the network were gone.
import { CATEGORIES, DEFAULT_ADMIN_EMAIL } from '../../../src/shared/post-rules';
import { pendingPost } from '../../../src/db/core/new-post';
import { makePost } from '../factories';
import type { Op, OpResult, WirePost } from '../../../src/shared/protocol';
import type { Fetch } from '../../../src/sync/api';

interface Account {
  email: string;
  name: string;
  password: string;
  role: 'admin' | 'user';
}

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const error = (status: number, code: string, message: string) => json(status, { error: { code, message } });

export class FakeServer {
  posts = new Map<number, WirePost>();
  accounts = new Map<string, Account>();
  applied = new Map<string, OpResult>();
  seq = 0;
  lastId = 1_700_000_000_000;
  down = false;
  /** Include the post in like and review results (the server may, or may leave it to the pull). */
  resultsCarryPost = true;
  requests: string[] = [];

  constructor() {
    this.accounts.set(DEFAULT_ADMIN_EMAIL, { email: DEFAULT_ADMIN_EMAIL, name: 'Admin', password: 'admin-pass', role: 'admin' });
  }

  /** Adds a post as if it had been created and reviewed earlier. */
  addPost(fields: Partial<WirePost> = {}): WirePost {
    this.lastId += 1;
    this.seq += 1;
    const post: WirePost = {
      ...makePost({
        id: this.lastId,
        title: `Server post ${this.lastId}`,
        content: 'Content from the server.',
        category: 'Trends',
        author: 'Someone',
        authorEmail: 'someone@example.com',
        ...fields,
      }),
      seq: this.seq,
    };
    this.posts.set(post.id, post);
    return post;
  }

  /** A fetch for one device: it keeps that device's signed-in account (its cookie). */
  device(): Fetch {
    const state: { email?: string } = {};
    const handler = async (input: string, init: RequestInit = {}): Promise<Response> => {
      if (this.down) throw new TypeError('Failed to fetch');
      const url = new URL(input, 'http://127.0.0.1');
      const method = init.method ?? 'GET';
      this.requests.push(`${method} ${url.pathname}`);
      if (init.body && String(init.body).length > 1024 * 1024) return error(413, 'too_large', 'This request is too large.');
      const body: unknown = init.body ? JSON.parse(String(init.body)) : undefined;
      return this.route(method, url, body, state);
    };
    return handler;
  }

  private route(method: string, url: URL, body: unknown, state: { email?: string }): Response {
    if (url.pathname === '/api/health') return json(200, { ok: true, database: 'pglite', version: 'test' });
    if (url.pathname === '/api/session' && method === 'POST')
      return this.signIn(body as { mode: string; email: string; password: string; name?: string }, state);
    if (url.pathname === '/api/session' && method === 'DELETE') {
      state.email = undefined;
      return json(204, undefined);
    }
    const account = state.email ? this.accounts.get(state.email) : undefined;
    if (!account) return error(401, 'signed_out', 'Please sign in again.');
    if (url.pathname === '/api/session') return json(200, { user: { email: account.email, name: account.name, role: account.role } });
    if (url.pathname === '/api/ops') return json(200, this.push((body as { ops: Op[] }).ops, account));
    if (url.pathname === '/api/changes')
      return json(200, this.changes(account, Number(url.searchParams.get('after')), Number(url.searchParams.get('limit') ?? 500)));
    return error(404, 'not_found', 'No such endpoint.');
  }

  private signIn(request: { mode: string; email: string; password: string; name?: string }, state: { email?: string }): Response {
    const email = request.email.trim().toLowerCase();
    const known = this.accounts.get(email);
    if (known && request.mode === 'signup')
      return error(409, 'account_exists', 'An account with this email already exists. Sign in instead.');
    if (known && known.password !== request.password) return error(401, 'bad_credentials', 'Incorrect email or password.');
    const account = known ?? { email, name: request.name ?? 'New Member', password: request.password, role: 'user' as const };
    this.accounts.set(email, account);
    state.email = email;
    return json(200, { user: { email, name: account.name, role: account.role } });
  }

  private visible(post: WirePost, account: Account): boolean {
    return post.status === 'approved' || post.authorEmail === account.email || account.role === 'admin';
  }

  changes(account: Account, after: number, limit: number) {
    const all = [...this.posts.values()].filter((post) => post.seq > after && this.visible(post, account)).sort((a, b) => a.seq - b.seq);
    const page = all.slice(0, limit);
    return { posts: page, cursor: page.length > 0 ? page[page.length - 1]!.seq : this.seq, more: all.length > limit };
  }

  private change(post: WirePost, changes: Partial<WirePost>): WirePost {
    this.seq += 1;
    const next = { ...post, ...changes, seq: this.seq };
    this.posts.set(post.id, next);
    return next;
  }

  private apply(op: Op, account: Account): OpResult {
    if (op.type === 'create') {
      const { title, content, category } = op.post as { title?: string; content?: string; category?: string };
      if (!title?.trim() || !content?.trim() || !CATEGORIES.includes(category as never))
        return { id: op.id, status: 'refused', code: 'invalid', reason: 'Please fill in all fields' };
      this.lastId = Math.max(Date.now(), this.lastId + 1);
      this.seq += 1;
      const post: WirePost = {
        ...pendingPost(this.lastId, account, { title: title.trim(), content: content.trim(), category: category! }),
        seq: this.seq,
      };
      this.posts.set(post.id, post);
      return { id: op.id, status: 'applied', postId: post.id, post };
    }
    const post = this.posts.get(op.postId);
    if (!post) return { id: op.id, status: 'refused', code: 'not_found', reason: 'This post no longer exists.' };
    if (op.type === 'like') {
      if (post.status !== 'approved')
        return { id: op.id, status: 'refused', code: 'not_approved', reason: 'Only approved posts can be liked.' };
      const next = this.change(post, { likes: post.likes + (op.count ?? 1) });
      return this.resultsCarryPost
        ? { id: op.id, status: 'applied', postId: next.id, post: next }
        : { id: op.id, status: 'applied', postId: next.id };
    }
    if (account.role !== 'admin') return { id: op.id, status: 'refused', code: 'forbidden', reason: 'Only an admin can review posts.' };
    if (post.status !== 'pending')
      return { id: op.id, status: 'refused', code: 'already_reviewed', reason: 'This post was already reviewed' };
    const next = this.change(post, { status: op.type === 'approve' ? 'approved' : 'rejected' });
    return this.resultsCarryPost
      ? { id: op.id, status: 'applied', postId: next.id, post: next }
      : { id: op.id, status: 'applied', postId: next.id };
  }

  push(ops: Op[], account: Account) {
    const results = ops.map((op) => {
      const seen = this.applied.get(op.id);
      if (seen) return seen.status === 'refused' ? seen : { ...seen, status: 'duplicate' as const };
      const result = this.apply(op, account);
      this.applied.set(op.id, result);
      return result;
    });
    return { results, cursor: this.seq };
  }
}
