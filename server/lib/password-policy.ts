// What a new password must be, on the server (accounts made, passwords changed; existing passwords
// keep working): the length rule of src/shared/validation.ts, and not a commonly used one, judged by
// zxcvbn-ts (its English and common dictionaries: the most used passwords, names, keyboard walks,
// repeats). A well-kept estimator rather than a list of our own: it knows the leaked lists and the
// patterns people use to get round a list ("Password1!", "qwertyuiop").
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { validateNewPassword, type Problem } from '../../src/shared/validation';

/** zxcvbn's score below which a password is too easy to guess (0: top passwords, 1: a few thousand guesses away). */
const MIN_SCORE = 2;

let estimator: ZxcvbnFactory | undefined;

/** What a member's email and name give away: each whole, the email's name part, and their words ("maria.lopez1987" → maria, lopez1987). */
function personalWords(inputs: readonly string[]): string[] {
  const words = new Set<string>();
  for (const input of inputs) {
    const lower = input.trim().toLowerCase();
    if (!lower) continue;
    const local = lower.split('@')[0]!;
    for (const word of [lower, local, ...local.split(/[^\p{L}\p{N}]+/u), ...lower.split(/\s+/)]) if (word.length >= 3) words.add(word);
  }
  return [...words];
}

/**
 * The rule a new password breaks, or null: too short (the shared rule's sentence), or commonly used
 * (also what the member's own email or name gives away, which `userInputs` adds to the dictionary).
 */
export function newPasswordProblem(password: string, userInputs: readonly string[] = []): Problem | null {
  const short = validateNewPassword(password);
  if (short) return short;
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  const { score } = estimator.check(password, personalWords(userInputs));
  if (score >= MIN_SCORE) return null;
  return {
    code: 'invalid',
    title: 'Password too common',
    message: 'This password is one that many people use, or close to one: choose a less common one (a few words together work well).',
  };
}
