// Sign in, Create Account and Log out for the whole app: through the server when this device is
// connected, through this browser's own accounts (src/db/accounts) when it is local-only. The
// session stored under `insightExchangeUser` keeps its shape and never holds a password or token.

import { AuthError, ValidationError } from '../db/core/errors';
import { saveSession } from '../db/accounts/session';
import { offlineSession, hasVerifier, rememberVerifier } from '../db/sync/offline-accounts';
import { validateSignIn, validateSignUp } from '../db/core/validation';
import type { Session } from '../db/types';
import type { SessionRequest } from '../shared/protocol';
import type { OfflineError as OfflineErrorClass, ServerError as ServerErrorClass, SyncApi } from './api';
import { detectMode } from './mode';

export const OFFLINE_SIGN_IN = "You're offline. Signing in on a new device needs a connection.";
export const OFFLINE_SIGN_UP = "You're offline. Creating an account needs a connection.";

/** The API client (with its schema library) loads only on a connected device. */
async function client(
  api: SyncApi | undefined,
): Promise<{ api: SyncApi; OfflineError: typeof OfflineErrorClass; ServerError: typeof ServerErrorClass }> {
  const module = await import('./api');
  return {
    api: api ?? module.createApi((input, init) => fetch(input, init)),
    OfflineError: module.OfflineError,
    ServerError: module.ServerError,
  };
}

/** Offline: a member who signed in on this device before can come back in; anyone else needs the server. */
async function signInOffline(request: SessionRequest): Promise<Session> {
  if (request.mode === 'signup') throw new ValidationError("You're offline", OFFLINE_SIGN_UP);
  const known = await offlineSession(request.email, request.password);
  if (known) {
    saveSession(known);
    return known;
  }
  if (await hasVerifier(request.email)) throw new AuthError();
  throw new ValidationError("You're offline", OFFLINE_SIGN_IN);
}

async function throughServer(given: SyncApi | undefined, request: SessionRequest): Promise<Session> {
  let loaded: Awaited<ReturnType<typeof client>>;
  try {
    loaded = await client(given);
  } catch {
    // The client's code could not be downloaded: this device is offline.
    return signInOffline(request);
  }
  const { api, OfflineError, ServerError } = loaded;
  let session: Session;
  try {
    const user = await api.signIn(request);
    session = { email: user.email, name: user.name, role: user.role };
  } catch (error) {
    if (error instanceof ServerError) throw new AuthError(error.message);
    if (error instanceof OfflineError) return signInOffline(request);
    throw error;
  }
  saveSession(session);
  // For an offline sign-in later; failing to keep it never fails the sign-in.
  void rememberVerifier(session, request.password).catch(() => undefined);
  return session;
}

/** Signs in (connected: the server checks the password; local-only: this browser's accounts). */
export async function signIn(email: string, password: string, api?: SyncApi): Promise<Session> {
  const problem = validateSignIn(email, password);
  if (problem) throw new ValidationError(problem.title, problem.message);
  if ((await detectMode(api)) === 'local') return (await import('../db/accounts/accounts')).signIn(email, password);
  return throughServer(api, { mode: 'signin', email: email.trim().toLowerCase(), password });
}

/** Creates an account and signs it in (connected: on the server; local-only: on this browser). */
export async function signUp(name: string, email: string, password: string, api?: SyncApi): Promise<Session> {
  const problem = validateSignUp(name, email, password);
  if (problem) throw new ValidationError(problem.title, problem.message);
  if ((await detectMode(api)) === 'local') return (await import('../db/accounts/accounts')).signUp(name, email, password);
  return throughServer(api, { mode: 'signup', email: email.trim().toLowerCase(), password, name: name.trim() });
}

/** Signs out in every tab of this device, and ends the session on the server when it can be reached. */
export async function signOut(api?: SyncApi): Promise<void> {
  saveSession(null);
  if ((await detectMode(api)) === 'local') return;
  await (await client(api)).api.signOut().catch(() => undefined);
}
