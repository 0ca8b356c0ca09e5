// Sign-ups through the emailed link (issue 59: Create Account answers "check your email", and the
// link makes the account and signs in), read from the .eml files a server without SMTP_URL writes
// under DATA_DIR/mail (scripts/mail-folder.mjs, shared with the benchmarks).
import { join } from 'node:path';
import { waitForSignUpToken } from '../../../scripts/mail-folder.mjs';

export { signUpAttemptIn, signUpOutcome, signUpTokenIn, waitForSignUpToken } from '../../../scripts/mail-folder.mjs';

type Send<A> = (method: string, path: string, payload?: unknown) => Promise<A>;

/**
 * Create Account through `send` (a test's HTTP client), then the emailed link, whose token
 * `tokenFor` finds, with the sign-up's password: the account is made and the client signed in. Resolves to the link's answer
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
  return send('POST', '/api/email/confirm', { token, password: signUp.password });
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
