// Signing in with the organisation's provider on this device (issue 63, connected mode only): what
// the server offers (GET /api/auth/methods, remembered for /login while offline), the address that
// starts a sign-in at the provider, and the device's side of its return: the session the server
// opened is taken as a sign-up's link's is (adoptSignUp), or a first sign-in's name is sent.
import { rememberAuthMethods, rememberedAuthMethods } from '../db/members/auth-methods';
import { DataError } from '../db/storage/errors';
import { sessionResponseSchema } from '../shared/protocol';
import { authMethodsSchema, ssoPendingSchema, type AuthMethods, type SsoPending } from '../shared/sign-in';
import type { Session } from '../db/types';
import { createApi, needsConnection, type SyncApi } from './api';

const defaultApi = (): SyncApi => createApi((input, init) => fetch(input, init));

function sender(api: SyncApi): NonNullable<SyncApi['send']> {
  if (!api.send) throw new Error('This client cannot send sign-in requests.');
  return api.send.bind(api);
}

/** Asks the server what /login offers, and remembers it; offline, what was remembered (or nothing). */
export async function readAuthMethods(api = defaultApi()): Promise<AuthMethods | null> {
  try {
    const methods = await sender(api)('GET', '/api/auth/methods', undefined, authMethodsSchema);
    rememberAuthMethods(methods);
    return methods;
  } catch {
    return rememberedAuthMethods();
  }
}

/**
 * "Sign in with {label}": the browser leaves for the provider through GET /api/oidc/start, which
 * comes back to `returnTo` (an app path). The server is asked first whether it can be reached:
 * offline (or the server down) the page would otherwise be the browser's own error page, so it says
 * `offline_sso` and stays, as a passkey says `offline_passkey` (needsConnection).
 */
export async function startOrganisationSignIn(
  returnTo: string,
  api = defaultApi(),
  go: (url: string) => void = (url) => window.location.assign(url),
  confirm = false,
): Promise<void> {
  await needsConnection('offline_sso', async () => {
    if (!(await api.health())) throw new DataError('offline');
  });
  // `confirm`: a confirmation (Delete my account without a password): the provider asks the member again.
  go(`/api/oidc/start?return=${encodeURIComponent(returnTo)}${confirm ? '&confirm=1' : ''}`);
}

/** Back from the provider signed in (`/login?sso=done`): the device takes the session the server opened. */
export async function takeSsoSession(api = defaultApi()): Promise<Session> {
  const user = await api.currentUser();
  if (!user) throw new DataError('sso_failed');
  return (await import('./auth')).adoptSignUp(user, api);
}

/** What a sign-in through the provider waits for (`/login?sso=name` or `link`). */
export const readSsoPending = (api = defaultApi()): Promise<SsoPending> =>
  sender(api)('GET', '/api/oidc/pending', undefined, ssoPendingSchema);

/** A first sign-in's name: the account is made, and the device signs in to it. */
export async function finishSsoName(name: string, api = defaultApi()): Promise<Session> {
  const answer = await sender(api)('POST', '/api/oidc/finish', { name: name.trim() }, sessionResponseSchema);
  return (await import('./auth')).adoptSignUp(answer.user, api);
}
