// A real OpenID provider (oidc-provider 9) run in-process on 127.0.0.1, the tests' organisation:
// server tests drive its sign-in page over HTTP (signInAtProvider below), browser tests fill it
// ("Email", "Sign in"). Consent is granted automatically; refresh tokens are issued for the
// offline_access scope when the request says prompt=consent (OpenID Connect Core 11); a removed account makes the refresh token grant fail (invalid_grant), as
// a provider that no longer knows a member does. The signing key is made here, so a test can also
// have the ID tokens it hands out altered (another audience, expired, another nonce) and signed
// again with the provider's own key: the forum must refuse those as it would a forged one.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';

export interface ProviderAccount {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
  groups?: string[];
}

export interface ProviderClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export type IdTokenClaims = Record<string, unknown>;

export interface TestProvider {
  issuer: string;
  close(): Promise<void>;
  addAccount(account: ProviderAccount): void;
  removeAccount(sub: string): void;
  setGroups(sub: string, groups: string[]): void;
  /** Alters every ID token the token endpoint hands out from now on (null: stop); signed again with the provider's key. */
  alterIdTokens(change: ((claims: IdTokenClaims) => IdTokenClaims) | null): void;
  /** While true, every request is answered 503 (the provider down for maintenance). */
  setDown(down: boolean): void;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const signInPage = (uid: string, message?: string) =>
  page(
    'Sign in',
    `<h1>Test organisation</h1>${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="/interaction/${uid}/login">
<label for="email">Email</label> <input id="email" name="email" type="email" autofocus>
<button type="submit">Sign in</button>
</form>`,
  );

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** Starts the provider on 127.0.0.1:port; the issuer is http://127.0.0.1:port. */
export async function startProvider(options: {
  port: number;
  clients: ProviderClient[];
  accounts?: ProviderAccount[];
}): Promise<TestProvider> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const accounts = new Map<string, ProviderAccount>((options.accounts ?? []).map((a) => [a.sub, { ...a }]));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const store: Store = new Map();
  let alterIdToken: ((claims: IdTokenClaims) => IdTokenClaims) | null = null;

  const provider = new Provider(issuer, {
    adapter: (model: string) => new MemoryAdapter(model, store),
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    pkce: { required: () => true },
    // The claims in the ID token itself, as most organisations' providers send them.
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'groups'],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: account.email,
          email_verified: account.emailVerified,
          name: account.name,
          groups: account.groups ?? [],
        }),
      };
    },
    renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = page('Error', `<h1>Error</h1><p>${escapeHtml(out.error ?? '')}: ${escapeHtml(out.error_description ?? '')}</p>`);
    },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 14 * 24 * 3600,
    },
  });
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'consent') {
      // Consent is granted at once: the grant covers whatever the client asked for.
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
      grant!.addOIDCScope(details.params.scope);
      const grantId = await grant!.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return;
    }
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(signInPage(details.uid));
      return;
    }
    const email = new URLSearchParams(await readBody(req)).get('email')?.trim().toLowerCase() ?? '';
    const account = [...accounts.values()].find((a) => a.email.toLowerCase() === email);
    if (!account) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(signInPage(details.uid, 'No account has that email.'));
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
  }

  /** Has the token endpoint's answer carry an altered ID token, signed again with the provider's key. */
  function alterTokenAnswer(res: ServerResponse) {
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    res.end = ((chunk?: unknown) => {
      const change = alterIdToken;
      if (!change || chunk === undefined || res.statusCode !== 200) return end(chunk);
      const answer = JSON.parse(String(chunk)) as { id_token?: string };
      if (answer.id_token) {
        const [header, payload] = answer.id_token.split('.');
        const claims = change(JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as IdTokenClaims);
        const input = `${header}.${base64url(JSON.stringify(claims))}`;
        answer.id_token = `${input}.${base64url(sign('sha256', Buffer.from(input), privateKey))}`;
      }
      const text = JSON.stringify(answer);
      res.setHeader('content-length', Buffer.byteLength(text));
      return end(text);
    }) as typeof res.end;
  }

  let down = false;
  const server = createServer((req, res) => {
    if (down) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('Down for maintenance');
      return;
    }
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (path.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page('Error', `<p>${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`));
      });
      return;
    }
    if (path === '/token') alterTokenAnswer(res);
    void callback(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });

  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    setDown: (value) => void (down = value),
    addAccount: (account) => void accounts.set(account.sub, { ...account }),
    removeAccount: (sub) => void accounts.delete(sub),
    setGroups: (sub, groups) => {
      const account = accounts.get(sub);
      if (account) account.groups = [...groups];
    },
    alterIdTokens: (change) => {
      alterIdToken = change;
    },
  };
}

/** A small cookie jar: name=value per host, enough for the provider's and the forum's cookies. */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  take(url: string, response: Response) {
    const host = new URL(url).host;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.cookies.set(host, jar);
  }

  header(url: string): string {
    const jar = this.cookies.get(new URL(url).host);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
  }

  get(url: string, name: string): string | undefined {
    return this.cookies.get(new URL(url).host)?.get(name);
  }

  set(url: string, name: string, value: string) {
    const host = new URL(url).host;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    jar.set(name, value);
    this.cookies.set(host, jar);
  }
}

/** One request with the jar's cookies, redirects not followed; the jar takes the answer's cookies. */
export async function jarFetch(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const cookie = jar.header(url);
  const headers = new Headers(init.headers);
  if (cookie) headers.set('cookie', cookie);
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.take(url, response);
  return response;
}

/**
 * Follows redirects from `url` with the jar until one leaves for `stopAt` (an origin or URL prefix)
 * or a page answers; returns that redirect's target (or the page's URL) and the last response.
 */
export async function followRedirects(jar: CookieJar, url: string, stopAt: string): Promise<{ url: string; response: Response }> {
  stopAt = new URL(stopAt).href; // As URLs write it (no default port).
  let current = url;
  for (let hops = 0; hops < 20; hops++) {
    const response = await jarFetch(jar, current);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return { url: current, response };
    const next = new URL(location, current).href;
    if (next.startsWith(stopAt)) return { url: next, response };
    current = next;
  }
  throw new Error(`Too many redirects from ${url}`);
}

/**
 * Signs in at the provider over HTTP as a browser would: follows the authorization URL to the sign-in
 * page, submits `email`, and follows the redirects until they return to `redirectUri`; returns that
 * callback URL (with code, state and iss) without requesting it.
 */
export async function signInAtProvider(jar: CookieJar, authorizationUrl: string, email: string, redirectUri: string): Promise<string> {
  redirectUri = new URL(redirectUri).href; // As URLs write it (no default port).
  const first = await followRedirects(jar, authorizationUrl, redirectUri);
  if (first.url.startsWith(redirectUri)) return first.url; // Already signed in at the provider.
  const html = await first.response.text();
  const action = /action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`The provider showed no sign-in form: ${html.slice(0, 300)}`);
  const target = new URL(action, first.url).href;
  const posted = await jarFetch(jar, target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }).toString(),
  });
  const location = posted.headers.get('location');
  if (!location) throw new Error(`The provider refused the sign-in: ${(await posted.text()).slice(0, 300)}`);
  const next = new URL(location, target).href;
  if (next.startsWith(redirectUri)) return next;
  const done = await followRedirects(jar, next, redirectUri);
  if (!done.url.startsWith(redirectUri)) throw new Error(`The provider did not return to ${redirectUri}: ${done.url}`);
  return done.url;
}

/** oidc-provider's adapter interface over a Map, quiet (the built-in one warns at start). */
type Store = Map<string, { payload: Record<string, unknown>; expiresAt?: number }>;
class MemoryAdapter {
  private readonly model: string;
  private readonly store: Store;

  constructor(model: string, store: Store) {
    this.model = model;
    this.store = store;
  }

  private key(id: string) {
    return `${this.model}:${id}`;
  }

  private read(key: string) {
    const entry = this.store.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt < Date.now()) {
      this.store.delete(key);
      return undefined;
    }
    return entry?.payload;
  }

  async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
    const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : undefined;
    this.store.set(this.key(id), { payload, expiresAt });
    if (typeof payload.grantId === 'string') {
      const grantKey = `grant:${payload.grantId}`;
      const members = (this.store.get(grantKey)?.payload.keys as string[] | undefined) ?? [];
      this.store.set(grantKey, { payload: { keys: [...members, this.key(id)] } });
    }
    if (typeof payload.uid === 'string') this.store.set(`sessionUid:${payload.uid}`, { payload: { id }, expiresAt });
    if (typeof payload.userCode === 'string') this.store.set(`userCode:${payload.userCode}`, { payload: { id }, expiresAt });
  }

  async find(id: string) {
    return this.read(this.key(id));
  }

  async findByUid(uid: string) {
    const id = this.read(`sessionUid:${uid}`)?.id;
    return typeof id === 'string' ? this.find(id) : undefined;
  }

  async findByUserCode(userCode: string) {
    const id = this.read(`userCode:${userCode}`)?.id;
    return typeof id === 'string' ? this.find(id) : undefined;
  }

  async consume(id: string) {
    const payload = this.read(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string) {
    this.store.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string) {
    const keys = (this.store.get(`grant:${grantId}`)?.payload.keys as string[] | undefined) ?? [];
    for (const key of keys) this.store.delete(key);
    this.store.delete(`grant:${grantId}`);
  }
}
