export function signUpTokenIn(mailDir: string, email: string, since?: number): string | undefined;
export function waitForSignUpToken(mailDir: string, email: string, timeoutMs?: number, since?: number): Promise<string>;
