// The emails a server without SMTP_URL writes as .eml files under DATA_DIR/mail, read as a mail
// program would: the tests and benchmarks that run the real server follow a sign-up's link from
// there (issue 59: Create Account answers "check your email", and the link makes the account and
// signs in). Typed in mail-folder.d.mts; tests/server/support/mail-folder.ts builds on it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A message's text with quoted-printable undone (soft line breaks, =XX bytes). */
const unquoted = (text) => text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));

/** The .eml files in `mailDir` (a folder or a list of them) written since `since` (ms), newest first, with their text. */
function* messagesSince(mailDir, since) {
  const files = [];
  for (const dir of Array.isArray(mailDir) ? mailDir : [mailDir]) {
    try {
      for (const name of readdirSync(dir)) if (name.endsWith('.eml')) files.push({ name, file: join(dir, name) });
    } catch {
      // A folder not made yet holds no mail.
    }
  }
  files.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
  for (const { file } of files) {
    if (statSync(file).mtimeMs < since) continue;
    yield unquoted(readFileSync(file, 'utf8'));
  }
}

const addressedTo = (text, email) => new RegExp(`^To: .*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(text);

/**
 * The token of the newest sign-up link to `email` written since `since` (ms) in `mailDir`, or
 * undefined. `mailDir` may be a list: servers sharing one database share its outbox, and whichever
 * instance claims a message first writes it into its own folder.
 */
export function signUpTokenIn(mailDir, email, since = 0) {
  for (const text of messagesSince(mailDir, since)) {
    if (!addressedTo(text, email) || !/^Subject: Finish creating/m.test(text)) continue;
    const token = text.match(/\/confirm-email\?token=([A-Za-z0-9_-]+)/)?.[1];
    if (token) return token;
  }
  return undefined;
}

/**
 * Whether the owner of `email` was told since `since` that someone tried to create an account with
 * it: Create Account's answer to an address that has an account (sent at most once an hour).
 */
export function signUpAttemptIn(mailDir, email, since = 0) {
  for (const text of messagesSince(mailDir, since))
    if (addressedTo(text, email) && /^Subject: Someone tried to create an account/m.test(text)) return true;
  return false;
}

/**
 * Reads `mailDir` every 50 ms until the sign-up link to `email` (written since `since`) comes, and
 * returns its token; `stop` ends the wait early (undefined), and so does `timeoutMs` (`onTimeout`).
 */
async function pollSignUpToken(mailDir, email, { timeoutMs, since, stop = () => false, onTimeout }) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const token = signUpTokenIn(mailDir, email, since);
    if (token) return token;
    if (stop()) return undefined;
    if (Date.now() > until) return onTimeout();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits (up to `timeoutMs`) for a sign-up link to `email` in `mailDir` written since `since`; throws when none comes. */
export function waitForSignUpToken(mailDir, email, timeoutMs = 15_000, since = 0) {
  return pollSignUpToken(mailDir, email, {
    timeoutMs,
    since,
    onTimeout: () => {
      throw new Error(`no sign-up link to ${email} in ${[mailDir].flat().join(', ')}`);
    },
  });
}

/**
 * After Create Account with `email`: its sign-up link's token, or undefined once the mail says the
 * address has an account (the owner was told) or, that mail being sent at most once an hour, when
 * no link came within `timeoutMs`.
 */
export function signUpOutcome(mailDir, email, timeoutMs = 30_000, since = 0) {
  return pollSignUpToken(mailDir, email, {
    timeoutMs,
    since,
    stop: () => signUpAttemptIn(mailDir, email, since),
    onTimeout: () => undefined,
  });
}
