// An account's input rules (sign-in, sign-up, a member's name, a new password, an email address),
// shared by the device (both modes) and the server as validation.ts's rules are (it re-exports
// them): /login and its Sign In need these, not the rest (issue 64, item 2: the forum's first frame).

import { ERRORS } from './errors';
import { LIMITS } from './post-rules';
import { hasInvisible, passesForStaff } from './names';
import { blank, problem, tooLong, unstorableText, type Problem } from './text-checks';

const FILL_ALL_FIELDS = 'Please fill all fields.';

/** Sign in: email and password are both required. */
export function validateSignIn(email: string, password: string): Problem | null {
  if (blank(email) || !password) return problem(ERRORS.invalid.title, 'Please enter email and password.');
  return tooLong('Email', email, LIMITS.email) ?? tooLong('Password', password, LIMITS.password) ?? unstorableText('Email', email);
}

/** What a malformed email address is told, on the device and by the server. */
export const EMAIL_FORMAT_MESSAGE = 'Enter an email address like name@example.com.';

/** An email address typed in a form: present, within the limit, shaped like one (the server's schema checks it strictly too), storable. */
export function validateEmailAddress(email: string): Problem | null {
  const trimmed = email.trim();
  if (blank(trimmed)) return problem(ERRORS.invalid.title, 'Enter an email address.');
  const shaped = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u.test(trimmed);
  return (
    tooLong('Email', trimmed, LIMITS.email) ??
    (shaped ? unstorableText('Email', trimmed) : problem(ERRORS.invalid.title, EMAIL_FORMAT_MESSAGE))
  );
}

/** Change email: the new address, and the current password that proves it is the member. */
export function validateChangeEmail(email: string, password: string): Problem | null {
  return (
    validateEmailAddress(email) ??
    (password
      ? tooLong('Password', password, LIMITS.password)
      : problem('Password needed', 'Enter your current password to change your email.'))
  );
}

/** Sign up: name, email and password are all required. */
export function validateSignUp(name: string, email: string, password: string): Problem | null {
  if (blank(name) || blank(email) || !password) return problem(ERRORS.invalid.title, FILL_ALL_FIELDS);
  return (
    tooLong('Name', name, LIMITS.name) ??
    tooLong('Email', email, LIMITS.email) ??
    tooLong('Password', password, LIMITS.password) ??
    unstorableText('Name', name) ??
    unstorableText('Email', email) ??
    validateName(name)
  );
}

/** The fewest characters a new password may have (connected mode: the server's accounts; local-only keeps no rule). */
export const MIN_PASSWORD_LENGTH = 10;

/**
 * A new password (an account created on the server, a password changed): at least
 * MIN_PASSWORD_LENGTH characters. The server also refuses a commonly used one (server/lib/password-policy.ts).
 */
export function validateNewPassword(password: string): Problem | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    return problem('Password too short', `Use at least ${MIN_PASSWORD_LENGTH} characters for your password.`);
  }
  return null;
}

/**
 * A member's name (sign-up, and later profile edits): not blank, within LIMITS.name, storable, and
 * without invisible or direction-changing characters (names.ts), which let one name pass for another.
 */
export function validateName(name: string): Problem | null {
  if (blank(name)) return problem(ERRORS.invalid.title, FILL_ALL_FIELDS);
  const wrong = tooLong('Name', name.trim(), LIMITS.name) ?? unstorableText('Name', name);
  if (wrong) return wrong;
  if (hasInvisible(name)) {
    return problem(
      'Name cannot be used',
      'Name holds an invisible or direction-changing character (often from a paste). Type the name without it.',
    );
  }
  return null;
}

/**
 * A member's name on a connected server, beyond validateName: the staff's words (admin, moderator,
 * staff, system, Insight Exchange…; names.ts) are refused for members. The admin may use them.
 */
export function validateMemberName(name: string, role: string): Problem | null {
  const wrong = validateName(name);
  if (wrong) return wrong;
  if (role !== 'admin' && passesForStaff(name)) {
    return problem('Name cannot be used', 'This name is kept for the forum’s staff. Choose another one.');
  }
  return null;
}
