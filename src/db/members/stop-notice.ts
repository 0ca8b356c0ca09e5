// Why this tab's member was signed out by the server (a suspension, a closed account, a new
// password, a sign-out from another device, an expired session), for the login page to say, once,
// instead of "signed out in another tab". Kept in sessionStorage: this tab only,
// gone with it; cleared by the next sign-in.

const KEY = 'ie-stopped';

export interface StopNotice {
  title: string;
  description: string;
}

export function rememberStop(notice: StopNotice): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(notice));
  } catch {
    // Storage refused: the toast said it already.
  }
}

export function readStop(): StopNotice | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<StopNotice> | null;
    return stored && typeof stored.title === 'string' && typeof stored.description === 'string'
      ? { title: stored.title, description: stored.description }
      : null;
  } catch {
    return null;
  }
}

export function clearStop(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to clear.
  }
}
