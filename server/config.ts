// The server's configuration, read once from the environment: the names of the server's contract
// in docs/server.md (PORT, HOST, DATA_DIR, DATABASE_URL, ADMIN_EMAIL, ADMIN_PASSWORD, TLS_CERT,
// TLS_KEY, TRUST_PROXY), plus DIST_DIR, MIN_FREE_MB, PUBLIC_ORIGIN, MAX_LIVE_STREAMS, SMTP_URL, MAIL_FROM,
// DATABASE_LISTEN_URL, DATABASE_POOL_MODE, REPLICA_URL, REQUEST_TIMEOUT_MS, MAX_CONNECTIONS_PER_ADDRESS, OIDC_* (single sign-on) and PASSWORD_SCRYPT_N (tests only).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_ADMIN_EMAIL, normalizeEmail } from '../src/shared/post-rules';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './lib/connections';
import { scryptCostFrom } from './lib/passwords';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** DATA_DIR was left to its default (./data), which is created when missing. */
  defaultDataDir: boolean;
  databaseUrl?: string;
  /**
   * DATABASE_LISTEN_URL: a direct connection to the primary for LISTEN, where DATABASE_URL goes
   * through a pooler in transaction mode (PgBouncer), which cannot hold a listening session.
   */
  databaseListenUrl?: string;
  /** DATABASE_POOL_MODE=transaction: DATABASE_URL is a transaction pooler; statements are not prepared. */
  databasePoolMode: 'session' | 'transaction';
  /** REPLICA_URL: a streaming replica of DATABASE_URL; pulls read there when it has replayed far enough. */
  replicaUrl?: string;
  adminEmail: string;
  adminPassword?: string;
  https?: { cert: Buffer; key: Buffer };
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses (TRUST_PROXY). */
  trustProxy: false | number | string[];
  distDir: string;
  /** The free space DATA_DIR must have at start, in MB (MIN_FREE_MB, default 64). */
  minFreeMb: number;
  /** PUBLIC_ORIGIN: the origins people reach this server at, beyond its own addresses (lib/host-names.ts). */
  publicOrigins: string[];
  /** MAX_LIVE_STREAMS: the live streams (GET /api/events) this instance keeps open at most (default 10,000). */
  maxLiveStreams: number;
  /** SMTP_URL: send email through this server; unset: .eml files under DATA_DIR/mail. */
  smtpUrl?: string;
  /** MAIL_FROM: the From of every email. */
  mailFrom: string;
  /** MAIL_LEASE_MS: how long an instance's claim on a message holds (default 5 minutes). */
  mailLeaseMs?: number;
  /** REQUEST_TIMEOUT_MS and MAX_CONNECTIONS_PER_ADDRESS (lib/connections.ts). */
  connections: ConnectionLimits;
  /** OIDC_*: single sign-on through an OpenID Connect provider (issue 63); unset: passwords and passkeys only. */
  oidc?: OidcConfig;
}

/** Single sign-on's settings (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and the optional others). */
export interface OidcConfig {
  /** OIDC_ISSUER: the provider's issuer URL (its discovery document at `/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** OIDC_LABEL: the words after "Sign in with" (default "your organisation"). */
  label: string;
  /** OIDC_GROUPS_CLAIM: an ID-token claim listing the forum groups the member belongs to, at each sign-in. */
  groupsClaim?: string;
  /** OIDC_ONLY=1: members sign in only through the provider; the admin keeps the password. */
  only: boolean;
  /** OIDC_RECHECK_HOURS (default 24, at most 24): how often a member's provider account is checked again. */
  recheckMs: number;
}

export const DEFAULT_OIDC_LABEL = 'your organisation';

/** OIDC_*, checked: the three required ones together or none; the issuer an http(s) URL. */
export function readOidc(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const [issuer, clientId, clientSecret] = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].map(
    (value) => value?.trim() || '',
  );
  if (!issuer && !clientId && !clientSecret) {
    const stray = ['OIDC_LABEL', 'OIDC_GROUPS_CLAIM', 'OIDC_ONLY'].find((name) => env[name]?.trim());
    if (stray) throw new ConfigError(`${stray} needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.`);
    return undefined;
  }
  if (!issuer || !clientId || !clientSecret)
    throw new ConfigError('Set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together (single sign-on), or none of them.');
  let url: URL | undefined;
  try {
    url = new URL(issuer);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash)
    throw new ConfigError(
      `OIDC_ISSUER must be the provider's issuer URL, such as https://login.example.com/realms/staff, not "${issuer}".`,
    );
  const only = (env.OIDC_ONLY?.trim() || '0').toLowerCase();
  if (!['0', '1', 'true', 'false', 'yes', 'no'].includes(only)) throw new ConfigError(`OIDC_ONLY must be 1 or 0, not "${env.OIDC_ONLY}".`);
  const hours = Number(env.OIDC_RECHECK_HOURS?.trim() || 24);
  if (!Number.isFinite(hours) || hours <= 0 || hours > 24)
    throw new ConfigError(`OIDC_RECHECK_HOURS must be a number of hours above 0 and at most 24, not "${env.OIDC_RECHECK_HOURS}".`);
  const label = env.OIDC_LABEL?.trim() || DEFAULT_OIDC_LABEL;
  if (label.length > 60) throw new ConfigError('OIDC_LABEL must be at most 60 characters.');
  return {
    issuer,
    clientId,
    clientSecret,
    label,
    groupsClaim: env.OIDC_GROUPS_CLAIM?.trim() || undefined,
    only: ['1', 'true', 'yes'].includes(only),
    recheckMs: Math.round(hours * 3_600_000),
  };
}

export const DEFAULT_MAIL_FROM = 'Insight Exchange <no-reply@insightexchange.app>';

/** SMTP_URL, checked: smtp:// or smtps:// with a host. */
function readSmtpUrl(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname)
    throw new ConfigError('SMTP_URL must look like smtp://user:pass@host:port (or smtps://).');
  return text;
}

/** MAIL_LEASE_MS, checked: at least a second (a send must fit in it), at most an hour. */
function readMailLease(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 1000 || ms > 3_600_000)
    throw new ConfigError(`MAIL_LEASE_MS must be a number of milliseconds between 1000 and 3600000, not "${value}".`);
  return ms;
}

/** MAIL_FROM, checked: an address, with an optional name ("Insight Exchange <no-reply@example.com>"). */
function readMailFrom(value: string | undefined): string {
  const text = value?.trim();
  if (!text) return DEFAULT_MAIL_FROM;
  if (!/^([^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(text))
    throw new ConfigError('MAIL_FROM must be an address such as Insight Exchange <no-reply@example.com>.');
  return text;
}

/** REQUEST_TIMEOUT_MS and MAX_CONNECTIONS_PER_ADDRESS, checked: whole numbers (a timeout of a second to ten minutes). */
function readConnections(env: NodeJS.ProcessEnv): ConnectionLimits {
  const requestTimeoutMs = Number(env.REQUEST_TIMEOUT_MS?.trim() || DEFAULT_CONNECTION_LIMITS.requestTimeoutMs);
  if (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs < 1000 || requestTimeoutMs > 600_000)
    throw new ConfigError(`REQUEST_TIMEOUT_MS must be a number of milliseconds between 1000 and 600000, not "${env.REQUEST_TIMEOUT_MS}".`);
  const perAddress = Number(env.MAX_CONNECTIONS_PER_ADDRESS?.trim() || DEFAULT_CONNECTION_LIMITS.perAddress);
  if (!Number.isInteger(perAddress) || perAddress < 1)
    throw new ConfigError(
      `MAX_CONNECTIONS_PER_ADDRESS must be a whole number of connections, at least 1, not "${env.MAX_CONNECTIONS_PER_ADDRESS}".`,
    );
  return { requestTimeoutMs, perAddress };
}

/** A configuration problem: reported in one sentence, then the process exits 1. */
export class ConfigError extends Error {}

function readTls(env: NodeJS.ProcessEnv): Config['https'] {
  if (!env.TLS_CERT && !env.TLS_KEY) return undefined;
  if (!env.TLS_CERT || !env.TLS_KEY)
    throw new ConfigError('Set both TLS_CERT and TLS_KEY (paths to the certificate and its key), or neither.');
  try {
    return { cert: readFileSync(env.TLS_CERT), key: readFileSync(env.TLS_KEY) };
  } catch (error) {
    throw new ConfigError(`The TLS certificate or key cannot be read: ${(error as Error).message}`);
  }
}

/** PUBLIC_ORIGIN's origins (comma- or space-separated), e.g. `https://forum.example.com`. */
function readPublicOrigins(value: string | undefined): string[] {
  const origins = (value ?? '').split(/[\s,]+/).filter(Boolean);
  return origins.map((origin) => {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (
      !url ||
      !['http:', 'https:'].includes(url.protocol) ||
      url.username ||
      url.password ||
      url.pathname !== '/' ||
      url.search ||
      url.hash
    )
      throw new ConfigError(`PUBLIC_ORIGIN must list origins such as https://forum.example.com (comma-separated), not "${origin}".`);
    return url.origin;
  });
}

/**
 * TRUST_PROXY: unset or `0`/`false`: no proxy. `1`/`true`/`yes`: one proxy in front, so only the
 * address it adds to X-Forwarded-For is the client's (never the left-most, which the client
 * writes itself). A number: that many proxies. Otherwise a comma-separated list of the proxies'
 * addresses or CIDR ranges.
 */
export function readTrustProxy(value: string | undefined): Config['trustProxy'] {
  const text = (value ?? '').trim().toLowerCase();
  if (['', '0', 'false', 'no'].includes(text)) return false;
  if (['true', 'yes'].includes(text)) return 1;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (list.some((entry) => !/^[0-9a-f:.]+(\/\d{1,3})?$/.test(entry))) {
    throw new ConfigError(`TRUST_PROXY must be 1, a number of proxies, or their addresses (comma-separated), not "${value}".`);
  }
  return list;
}

/** The configuration of `env`; throws ConfigError with a readable message on a bad value. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 4173);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConfigError(`PORT must be a port number, not "${env.PORT}".`);
  const minFreeMb = Number(env.MIN_FREE_MB?.trim() || 64);
  if (!Number.isFinite(minFreeMb) || minFreeMb < 0)
    throw new ConfigError(`MIN_FREE_MB must be a number of megabytes, not "${env.MIN_FREE_MB}".`);
  const maxLiveStreams = Number(env.MAX_LIVE_STREAMS?.trim() || 10_000);
  if (!Number.isInteger(maxLiveStreams) || maxLiveStreams < 1)
    throw new ConfigError(`MAX_LIVE_STREAMS must be a whole number of streams, at least 1, not "${env.MAX_LIVE_STREAMS}".`);
  try {
    scryptCostFrom(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://.');
  const databaseListenUrl = env.DATABASE_LISTEN_URL?.trim() || undefined;
  if (databaseListenUrl && (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseListenUrl)))
    throw new ConfigError('DATABASE_LISTEN_URL must start with postgres:// or postgresql://, and needs DATABASE_URL.');
  const replicaUrl = env.REPLICA_URL?.trim() || undefined;
  if (replicaUrl && (!databaseUrl || !/^postgres(ql)?:\/\//.test(replicaUrl)))
    throw new ConfigError('REPLICA_URL must start with postgres:// or postgresql://, and needs DATABASE_URL (the primary).');
  const poolMode = env.DATABASE_POOL_MODE?.trim() || 'session';
  if (poolMode !== 'session' && poolMode !== 'transaction')
    throw new ConfigError(`DATABASE_POOL_MODE must be session or transaction, not "${env.DATABASE_POOL_MODE}".`);
  return {
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR?.trim() || 'data'),
    defaultDataDir: !env.DATA_DIR?.trim(),
    databaseUrl,
    databaseListenUrl,
    databasePoolMode: poolMode,
    replicaUrl,
    adminEmail: normalizeEmail(env.ADMIN_EMAIL?.trim() || DEFAULT_ADMIN_EMAIL),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    https: readTls(env),
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    distDir: resolve(env.DIST_DIR?.trim() || 'dist'),
    minFreeMb,
    publicOrigins: readPublicOrigins(env.PUBLIC_ORIGIN),
    maxLiveStreams,
    smtpUrl: readSmtpUrl(env.SMTP_URL),
    mailFrom: readMailFrom(env.MAIL_FROM),
    mailLeaseMs: readMailLease(env.MAIL_LEASE_MS),
    connections: readConnections(env),
    oidc: readOidc(env),
  };
}
