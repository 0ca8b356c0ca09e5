// The server benchmark's tools: start the built server as a process, a signed-in HTTP session
// (Node's fetch), live-stream listeners over raw sockets, process memory, percentiles. 127.0.0.1 only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { waitForSignUpToken } from '../../scripts/mail-folder.mjs';

export const DEADLINE = Date.now() + 25 * 60_000;

/**
 * Node's flags in package.json's "serve" script (what `npm start` runs after its build), e.g.
 * ['--v8-pool-size=1']: every benchmark starts the server as `npm start` does.
 */
export function serveFlags() {
  const serve = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts.serve;
  const [node, ...rest] = serve.trim().split(/\s+/);
  if (node !== 'node') throw new Error(`package.json's serve script does not start with node: ${serve}`);
  return rest.filter((arg) => arg.startsWith('--'));
}

/**
 * Starts dist-server/server.js with `env` as `npm start` does; resolves to { url, pid, stop } once it
 * listens, its member limits opened wide through the admin API (a benchmark's members write far more
 * than a person may) unless `limits` is 'defaults'.
 */
export async function startServer(env, { limits = 'open' } = {}) {
  const server = await spawnServer(env);
  if (limits === 'open') await openLimits(server.url);
  return server;
}

const OPEN_LIMIT = { count: 1_000_000, seconds: 1, firstDayCount: 1_000_000, firstDaySeconds: 1 };

/** Opens every member limit of the server at `url` (kept in its database). */
export async function openLimits(url, adminPassword = 'bench-admin') {
  const admin = new Session(url);
  await admin.signIn('admin@insightexchange.app', adminPassword);
  const { limits } = await admin.send('GET', '/api/admin/limits');
  for (const name of Object.keys(limits)) await admin.send('PUT', '/api/admin/limits', { name, rule: OPEN_LIMIT });
}

/**
 * How to read the sign-up link each server emailed, by its URL: a member's account is made by the
 * link emailed at sign-up (Session.signIn follows it). `read(email, since)` resolves to its token.
 */
const signUpLinks = new Map();
/** Remembers that the server at `url` writes its emails under `dataDir`/mail (no SMTP_URL: .eml files). */
export function noteMailFolder(url, dataDir) {
  const folder = join(dataDir, 'mail');
  noteSignUpLinks(url, (email, since) => waitForSignUpToken(folder, email, 60_000, since));
}
/** Remembers how to read the sign-up links of the server at `url` (a cluster: its primary's mail queue). */
export function noteSignUpLinks(url, read) {
  signUpLinks.set(new URL(url).origin, read);
}

/** BENCH_PORT_BASE: the servers listen on that port and the next ones, one each (else on free ports). */
let nextPort = Number(process.env.BENCH_PORT_BASE) || 0;

function spawnServer(env) {
  // A server on PostgreSQL keeps its emails (and files) in DATA_DIR too: a folder of its own unless given
  // (two instances of one database may share one: either may send a sign-up's email).
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(os.tmpdir(), 'ie-bench-data-'));
  const child = spawn(process.execPath, [...serveFlags(), process.env.BENCH_SERVER_JS ?? 'dist-server/server.js'], {
    // Its thousand live streams come from one address (no X-Forwarded-For): the per-address cap is lifted.
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(nextPort ? nextPort++ : 0),
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'bench-admin',
      TRUST_PROXY: '1',
      MAX_CONNECTIONS_PER_ADDRESS: '1000000',
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start:\n${output}`));
    }, 120_000);
    const onData = (chunk) => {
      output += chunk;
      const url = /Insight Exchange listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        const stopped = () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
            child.once('exit', done);
            child.kill('SIGTERM');
          });
        // A folder made here goes with its server.
        const stop = async () => {
          const code = await stopped();
          if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
          return code;
        };
        noteMailFolder(url, dataDir);
        resolve({ url, pid: child.pid, dataDir, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
}

/** Resident memory of a process in MB (Linux /proc). */
export const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** The members' password: long and uncommon, as a new account's must be. */
export const BENCH_PASSWORD = 'bench-quiet-harbor-7419';
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1000 });

export class Session {
  constructor(url) {
    this.url = url;
    this.cookie = '';
  }
  /** One request over a kept-alive socket (node:http costs the load generator far less CPU than fetch). */
  send(method, path, body, extra = {}) {
    if (Date.now() > DEADLINE) return Promise.reject(new Error('the benchmark ran out of time'));
    const payload = body ? JSON.stringify(body) : undefined;
    const headers = { ...(payload ? { 'content-type': 'application/json', origin: this.url } : {}), cookie: this.cookie, ...extra };
    return new Promise((resolve, reject) => {
      const request = http.request(this.url + path, { method, headers, agent: keepAlive }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          const cookie = response.headers['set-cookie']?.[0];
          if (cookie) this.cookie = cookie.split(';')[0];
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            // Not the server's JSON (a load balancer's own page, say): refused with what came.
            return reject(new Error(`${method} ${path}: ${response.statusCode} ${text.slice(0, 200)}`));
          }
          if (response.statusCode >= 400) reject(new Error(`${method} ${path}: ${response.statusCode} ${text}`));
          else resolve(json);
        });
      });
      request.on('error', reject);
      request.end(payload);
    });
  }
  /**
   * Signs in, making the member's account first when there is none (Sign In never makes one):
   * Create Account, then the link the server emailed (issue 59), which makes the account and signs
   * in. `address` stands for the client's own address (the servers run with TRUST_PROXY=1); `named`, the new account's name.
   */
  async signIn(email, password = BENCH_PASSWORD, address = '127.0.0.1', named = undefined) {
    const from = { 'x-forwarded-for': address };
    const signedIn = await this.send('POST', '/api/session', { mode: 'signin', email, password }, from).catch((error) => error);
    if (!(signedIn instanceof Error) || email === 'admin@insightexchange.app') {
      if (signedIn instanceof Error) throw signedIn;
      return signedIn;
    }
    if (!/: 401 /.test(signedIn.message)) throw signedIn;
    const read = signUpLinks.get(new URL(this.url).origin);
    if (!read) throw new Error(`no way to read the emails of ${this.url}: its sign-up links cannot be followed`);
    const since = Date.now() - 1000;
    const name = named ?? `Bench ${email.split('@')[0]} ${Math.random().toString(36).slice(2, 8)}`;
    await this.send('POST', '/api/session', { mode: 'signup', email, password, name }, from);
    const token = await read(email, since);
    return this.send('POST', '/api/email/confirm', { token, password }, from);
  }
  push(...ops) {
    return this.send('POST', '/api/ops', { ops });
  }
}

/**
 * Opens one live stream on `url` with `cookie`; `onCursor(cursor)` for every announcement.
 * Resolves once the first announcement (on connect) arrived.
 */
export function listen(url, cookie, onCursor) {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/api/events`, { headers: { cookie }, agent: false }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`events answered ${response.statusCode}`));
      response.setEncoding('utf8');
      let first = true;
      response.on('data', (chunk) => {
        for (const match of chunk.matchAll(/data: \{"cursor":(\d+)\}/g)) onCursor(Number(match[1]));
        if (first) {
          first = false;
          resolve({ close: () => request.destroy() });
        }
      });
    });
    request.on('error', reject);
  });
}

export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
