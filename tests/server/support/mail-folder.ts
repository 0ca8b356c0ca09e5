// The emails a server without SMTP_URL writes as .eml files under DATA_DIR/mail, read as a mail
// program would: the tests that run the real server follow a sign-up's link from there (issue 59:
// Create Account answers "check your email", and the link makes the account and signs in).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A message's text with quoted-printable undone (soft line breaks, =XX bytes). */
const unquoted = (text: string): string =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The token of the newest sign-up link in `mailDir` to `email` written since `since` (ms), or undefined. */
export function signUpTokenIn(mailDir: string, email: string, since = 0): string | undefined {
  let files: string[];
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
export async function waitForSignUpToken(mailDir: string, email: string, timeoutMs = 15_000, since = 0): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const token = signUpTokenIn(mailDir, email, since);
    if (token) return token;
    if (Date.now() > until) throw new Error(`no sign-up link to ${email} in ${mailDir}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Send<A> = (method: string, path: string, payload?: unknown) => Promise<A>;

/**
 * Create Account through `send` (a test's HTTP client), then the emailed link, whose token
 * `tokenFor` finds: the account is made and the client signed in. Resolves to the link's answer
 * ({ message, user }), or to the sign-up's when it was refused.
 */
export async function signUpAndFollowLink<A extends { status: number }>(
  send: Send<A>,
  tokenFor: (email: string) => Promise<string | undefined>,
  signUp: { email: string; password: string; name: string },
): Promise<A> {
  const made = await send('POST', '/api/session', { mode: 'signup', ...signUp });
  if (made.status !== 200) return made;
  const token = await tokenFor(signUp.email);
  if (!token) throw new Error(`no sign-up link was sent to ${signUp.email}`);
  return send('POST', '/api/email/confirm', { token });
}

/** signUpAndFollowLink for a server that writes its emails under `dataDir`/mail (no SMTP_URL). */
export function signUpThroughMailFolder<A extends { status: number }>(
  send: Send<A>,
  dataDir: string,
  signUp: { email: string; password: string; name: string },
): Promise<A> {
  const since = Date.now() - 1000;
  return signUpAndFollowLink(send, (email) => waitForSignUpToken(join(dataDir, 'mail'), email, 15_000, since), signUp);
}
