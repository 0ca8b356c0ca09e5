export function signUpTokenIn(mailDir: string | readonly string[], email: string, since?: number): string | undefined;
export function waitForSignUpToken(mailDir: string | readonly string[], email: string, timeoutMs?: number, since?: number): Promise<string>;
export function signUpAttemptIn(mailDir: string | readonly string[], email: string, since?: number): boolean;
export function signUpOutcome(
  mailDir: string | readonly string[],
  email: string,
  timeoutMs?: number,
  since?: number,
): Promise<string | undefined>;
