// Password hashing with node:crypto's scrypt (memory-hard, no native dependency). The stored form
// is `scrypt$N$r$p$salt$hash` (base64url), so the cost can be raised without breaking old hashes:
// a hash made with a lower cost still verifies, and `needsRehash` tells the sign-in to upgrade it.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** OWASP's minimum for scrypt (Password Storage Cheat Sheet): N = 2^17, r = 8, p = 1 (128 MiB, 128·N·r bytes). */
export const STANDARD_SCRYPT_COST = { N: 2 ** 17, r: 8, p: 1 } as const;

/**
 * The cost new hashes are made with: the standard one unless PASSWORD_SCRYPT_N lowers N, for test
 * runs only (a power of two from 2^10): one derivation at N = 2^17 takes about 0.9 s of a core on a
 * 2-core CI machine, and the test suites sign in thousands of times (as Laravel's BCRYPT_ROUNDS=4
 * in its test configuration). A hash keeps its own parameters, so a server started later with the
 * standard cost still verifies it and upgrades it at the next sign-in (`needsRehash`). The server
 * says so in its start log when the cost is lowered (index.ts).
 */
export function scryptCostFrom(env: NodeJS.ProcessEnv): { N: number; r: number; p: number } {
  const raw = env.PASSWORD_SCRYPT_N?.trim();
  if (!raw) return { ...STANDARD_SCRYPT_COST };
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 2 ** 10 || n > STANDARD_SCRYPT_COST.N || (n & (n - 1)) !== 0) {
    throw new Error(`PASSWORD_SCRYPT_N must be a power of two from 1024 to ${STANDARD_SCRYPT_COST.N}, not "${raw}".`);
  }
  return { ...STANDARD_SCRYPT_COST, N: n };
}

/** The cost of this process (an unreadable PASSWORD_SCRYPT_N leaves the standard one: the server's start refuses it, config.ts). */
export const SCRYPT_COST: Readonly<{ N: number; r: number; p: number }> = Object.freeze(
  (() => {
    try {
      return scryptCostFrom(process.env);
    } catch {
      return { ...STANDARD_SCRYPT_COST };
    }
  })(),
);
/** True when PASSWORD_SCRYPT_N has lowered the cost below the standard one (tests only). */
export const scryptCostLowered = (): boolean => SCRYPT_COST.N < STANDARD_SCRYPT_COST.N;
const KEY_LENGTH = 32;
/**
 * The memory one derivation may use: node's default (32 MiB) is below what N = 2^17 needs, and a
 * bound still refuses a stored hash whose parameters (read from the database) would ask for more.
 */
const MAX_MEMORY = 256 * 1024 * 1024;

/**
 * At most this many derivations at once; the rest wait their turn. Each holds one of libuv's four
 * threads (which also read the app's files) and 128 MiB for about 0.3 s: a burst of sign-ins must
 * neither stall static files nor take 512 MiB.
 */
const MAX_AT_ONCE = 2;
let running = 0;
/** What waits, by who asks (a client's address): served one of each in turn, so a burst from one never starves another. */
const waiting = new Map<string, (() => void)[]>();

/** The next waiting derivation: the first of the client whose turn it is (Map order: round robin). */
function next(): (() => void) | undefined {
  for (const [key, queue] of waiting) {
    const start = queue.shift();
    waiting.delete(key);
    // Back at the end of the line with what is left, behind every other client.
    if (queue.length > 0) waiting.set(key, queue);
    return start;
  }
  return undefined;
}

async function slot<T>(key: string, work: () => Promise<T>): Promise<T> {
  if (running >= MAX_AT_ONCE) {
    await new Promise<void>((resolve) => {
      const queue = waiting.get(key);
      if (queue) queue.push(resolve);
      else waiting.set(key, [resolve]);
    });
  } else running += 1;
  try {
    return await work();
  } finally {
    const start = next();
    if (start) start();
    else running -= 1;
  }
}

/** Who a derivation is for: a client's address (sign-ins), or the server itself (start-up, tools). */
export type HashClient = string;
const SERVER: HashClient = 'server';

let derived = 0;
/** How many derivations this process has started: a sign-in costs one whatever its answer (tests count them). */
export const derivationCount = (): number => derived;

function derive(password: string, salt: Buffer, options: ScryptOptions, client: HashClient): Promise<Buffer> {
  derived += 1;
  return slot(
    client,
    () =>
      new Promise((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}

/** A fresh salted hash of `password`; never the same twice. */
export async function hashPassword(password: string, client: HashClient = SERVER): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT_COST, client);
  return ['scrypt', SCRYPT_COST.N, SCRYPT_COST.r, SCRYPT_COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True only when `password` produced `stored`; compares in constant time. */
export async function verifyPassword(password: string, stored: string, client: HashClient = SERVER): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }, client);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when `stored` was made with a lower cost than SCRYPT_COST (an older build's): rehash it. */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) < SCRYPT_COST.N || Number(r) < SCRYPT_COST.r || Number(p) < SCRYPT_COST.p;
}

/**
 * A hash of no one's password at the current cost: checked against an email that has no account,
 * so a wrong email costs a sign-in what a wrong password does and answers the same.
 */
export const NO_ONES_HASH = `scrypt$${SCRYPT_COST.N}$${SCRYPT_COST.r}$${SCRYPT_COST.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;

/** A strong random password for the generated admin account (24 characters, about 143 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
