// The tests' reading of a server's mail folder (scripts/mail-folder.mjs): after Create Account, the
// sign-up link's token, or nothing once the owner of an address that has an account was told so.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signUpAttemptIn, signUpOutcome, signUpTokenIn } from '../support/mail-folder';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ie-mail-folder-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, to: string, subject: string, body = '') =>
  writeFileSync(
    join(dir, `${name}.eml`),
    `From: Insight Exchange <no-reply@insightexchange.app>\nTo: ${to}\nSubject: ${subject}\n\n${body}\n`,
  );

describe('the mail folder', () => {
  it('finds the sign-up link (quoted-printable undone) to the address it was sent to only', async () => {
    write('1', 'sami@example.com', 'Finish creating your Insight Exchange account', 'http://x/confirm-email?token=ab=\nc_1');
    expect(signUpTokenIn(dir, 'sami@example.com')).toBe('abc_1');
    expect(signUpTokenIn(dir, 'other@example.com')).toBeUndefined();
    await expect(signUpOutcome(dir, 'sami@example.com', 1_000)).resolves.toBe('abc_1');
  });

  it('an address that has an account: the owner’s notice ends the wait at once, with no token', async () => {
    write('1', 'tess@example.com', 'Someone tried to create an account with your email');
    expect(signUpAttemptIn(dir, 'tess@example.com')).toBe(true);
    expect(signUpAttemptIn(dir, 'sami@example.com')).toBe(false);
    const started = Date.now();
    await expect(signUpOutcome(dir, 'tess@example.com', 20_000)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a link that comes late is still waited for; none at all ends with no token after the wait', async () => {
    const late = signUpOutcome(dir, 'rhea@example.com', 20_000);
    write('2', 'rhea@example.com', 'Finish creating your Insight Exchange account', 'http://x/confirm-email?token=late');
    await expect(late).resolves.toBe('late');
    await expect(signUpOutcome(dir, 'nobody@example.com', 200)).resolves.toBeUndefined();
  });
});
