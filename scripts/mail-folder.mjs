// The emails a server without SMTP_URL writes as .eml files under DATA_DIR/mail, read as a mail
// program would: the tests and benchmarks that run the real server follow a sign-up's link from
// there (issue 59: Create Account answers "check your email", and the link makes the account and
// signs in). Typed in mail-folder.d.mts; tests/server/support/mail-folder.ts builds on it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A message's text with quoted-printable undone (soft line breaks, =XX bytes). */
const unquoted = (text) => text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));

/** The token of the newest sign-up link in `mailDir` to `email` written since `since` (ms), or undefined. */
export function signUpTokenIn(mailDir, email, since = 0) {
  let files;
  try {
    files = readdirSync(mailDir).filter((name) => name.endsWith('.eml'));
  } catch {
    return undefined;
  }
  for (const name of files.sort().reverse()) {
    const file = join(mailDir, name);
    if (statSync(file).mtimeMs < since) continue;
    const text = unquoted(readFileSync(file, 'utf8'));
    if (!new RegExp(`^To: .*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(text)) continue;
    if (!/^Subject: Finish creating/m.test(text)) continue;
    const token = text.match(/\/confirm-email\?token=([A-Za-z0-9_-]+)/)?.[1];
    if (token) return token;
  }
  return undefined;
}

/** Waits (up to `timeoutMs`) for a sign-up link to `email` in `mailDir` written since `since`; throws when none comes. */
export async function waitForSignUpToken(mailDir, email, timeoutMs = 15_000, since = 0) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const token = signUpTokenIn(mailDir, email, since);
    if (token) return token;
    if (Date.now() > until) throw new Error(`no sign-up link to ${email} in ${mailDir}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
