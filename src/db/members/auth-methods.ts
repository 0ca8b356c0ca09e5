// The ways of signing in the server last offered (GET /api/auth/methods, issue 63), kept in
// localStorage so that /login shows the organisation's button while offline too.
import { authMethodsSchema, type AuthMethods } from '../../shared/sign-in';

const KEY = 'insightExchangeAuthMethods';

/** The ways of signing in this device last heard of (null: never, or unreadable). */
export function rememberedAuthMethods(): AuthMethods | null {
  try {
    const parsed = authMethodsSchema.safeParse(JSON.parse(localStorage.getItem(KEY) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function rememberAuthMethods(methods: AuthMethods): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(methods));
  } catch {
    // Storage full or refused: the next visit asks again.
  }
}
