// Password hashing with node:crypto (no native dependency): argon2id at OWASP's minimum (the
// Password Storage Cheat Sheet's first choice), or scrypt, which earlier builds made and which test
// runs still make at a lowered cost (PASSWORD_SCRYPT_N). The stored form names its scheme and cost,
// `argon2id$m$t$p$salt$hash` (m in KiB) or `scrypt$N$r$p$salt$hash` (base64url), so the cost can be
// raised without breaking old hashes: every stored hash still verifies, and `needsRehash` tells the
// sign-in to replace one made with a scheme or cost below the current one.
import * as nodeCrypto from 'node:crypto';
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** node:crypto's argon2 (Node 24.7 and later); the server also runs on Node 22, which makes scrypt hashes. */
const argon2 = (nodeCrypto as { argon2?: typeof nodeCrypto.argon2 }).argon2;

/**
 * OWASP's minimum for argon2id (Password Storage Cheat Sheet): 19 MiB, 2 passes, 1 lane. The sheet
 * rates it as strong as scrypt's minimum below, at a tenth of the time here (about 50 ms of a core
 * against 450–900 ms), which the sign-in waited for (issue 64, items 4 and 5).
 */
export const STANDARD_ARGON2_COST = { memory: 19_456, passes: 2, parallelism: 1 } as const;

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
/** True when PASSWORD_SCRYPT_N has lowered the cost below the standard one (tests only): new hashes are then scrypt at that N. */
export const scryptCostLowered = (): boolean => SCRYPT_COST.N < STANDARD_SCRYPT_COST.N;
const KEY_LENGTH = 32;
/**
 * The memory one derivation may use: node's default (32 MiB) is below what N = 2^17 needs, and a
 * bound still refuses a stored hash whose parameters (read from the database) would ask for more.
 */
const MAX_MEMORY = 256 * 1024 * 1024;
/** The most an argon2id hash read from the database may ask for (a forged row must not take the server's memory or time). */
const MAX_ARGON2 = { memory: 262_144, passes: 10, parallelism: 4 } as const;

/**
 * At most this many derivations at once; the rest wait their turn. Each holds one of libuv's four
 * threads (which also read the app's files) and 19 MiB (argon2id) or 128 MiB (an older scrypt hash)
 * while it runs: a burst of sign-ins must neither stall static files nor take 512 MiB.
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

type Cost = { scheme: 'argon2id'; memory: number; passes: number; parallelism: number } | ({ scheme: 'scrypt' } & ScryptOptions);

/** The scheme and cost new hashes are made with: argon2id at the standard cost, or scrypt at a test run's lowered N. */
const CURRENT: Cost =
  scryptCostLowered() || !argon2 ? { scheme: 'scrypt', ...SCRYPT_COST } : { scheme: 'argon2id', ...STANDARD_ARGON2_COST };

function derive(password: string, salt: Buffer, cost: Cost, client: HashClient): Promise<Buffer> {
  derived += 1;
  const message = password.normalize('NFKC');
  return slot(
    client,
    () =>
      new Promise((resolve, reject) => {
        const done = (error: Error | null, key: Buffer) => (error ? reject(error) : resolve(key));
        if (cost.scheme === 'argon2id') {
          // A hash made under Node 24.7+, read by a server since moved to an older Node.
          if (!argon2) return reject(new Error('This password hash is argon2id, which needs Node 24.7 or later.'));
          const { memory, passes, parallelism } = cost;
          argon2('argon2id', { message, nonce: salt, memory, passes, parallelism, tagLength: KEY_LENGTH }, done);
        } else {
          const { N, r, p } = cost;
          scrypt(message, salt, KEY_LENGTH, { N, r, p, maxmem: MAX_MEMORY }, done);
        }
      }),
  );
}

/** The numbers of a stored hash's cost, in its order. */
const numbersOf = (cost: Cost): number[] =>
  cost.scheme === 'argon2id' ? [cost.memory, cost.passes, cost.parallelism] : [cost.N!, cost.r!, cost.p!];

/** A stored hash's scheme, cost, salt and hash; undefined for anything else (no password: an organisation's account, a closed one). */
function parse(stored: string): { cost: Cost; salt: Buffer; hash: Buffer } | undefined {
  const [scheme, a, b, c, salt, hash] = stored.split('$');
  const [x, y, z] = [a, b, c].map(Number) as [number, number, number];
  if (!salt || !hash || ![x, y, z].every((n) => Number.isSafeInteger(n) && n > 0)) return undefined;
  const bytes = { salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
  if (scheme === 'argon2id') {
    if (x > MAX_ARGON2.memory || y > MAX_ARGON2.passes || z > MAX_ARGON2.parallelism || x < 8 * z || bytes.salt.length < 8)
      return undefined;
    return { cost: { scheme, memory: x, passes: y, parallelism: z }, ...bytes };
  }
  if (scheme === 'scrypt') return { cost: { scheme, N: x, r: y, p: z }, ...bytes };
  return undefined;
}

/** True when `stored` is a password hash (either scheme), not the mark of an account without a password. */
export const isPasswordHash = (stored: string): boolean => parse(stored) !== undefined;

/** A fresh salted hash of `password` with the current scheme and cost; never the same twice. */
export async function hashPassword(password: string, client: HashClient = SERVER): Promise<string> {
  return hashWith(password, CURRENT, client);
}

/** A fresh salted hash of `password` with `cost` (tests make the standard one while the run's is lowered). */
export async function hashWith(password: string, cost: Cost, client: HashClient = SERVER): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, client);
  return [cost.scheme, ...numbersOf(cost), salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** The standard cost of new hashes, whatever this run's (for tests of the production scheme). */
export const STANDARD_COST: Cost = { scheme: 'argon2id', ...STANDARD_ARGON2_COST };

/** True only when `password` produced `stored`; compares in constant time. */
export async function verifyPassword(password: string, stored: string, client: HashClient = SERVER): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.cost, client);
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/**
 * True when `stored` was made with a scheme or cost below `current` (an older build's scrypt where
 * argon2id is current, or a lower cost of the same scheme): the sign-in replaces it. A test run's
 * lowered scrypt never replaces an argon2id hash.
 */
export function needsRehash(stored: string, current: Cost = CURRENT): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  if (parsed.cost.scheme !== current.scheme) return current.scheme === 'argon2id';
  const have = numbersOf(parsed.cost);
  return numbersOf(current).some((wanted, at) => have[at]! < wanted);
}

/**
 * A hash of no one's password at the current cost: checked against an email that has no account,
 * so a wrong email costs a sign-in what a wrong password does and answers the same.
 */
export const NO_ONES_HASH = [
  CURRENT.scheme,
  ...numbersOf(CURRENT),
  Buffer.alloc(16).toString('base64url'),
  Buffer.alloc(KEY_LENGTH).toString('base64url'),
].join('$');

/** A strong random password for the generated admin account (24 characters, about 143 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
