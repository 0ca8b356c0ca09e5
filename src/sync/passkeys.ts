// Passkeys on this device (issue 63, connected mode): sign in with one at /login, and add, list and
// remove them on Profile. The browser's WebAuthn prompt is @simplewebauthn/browser's, loaded only
// when a button is pressed; the server's routes are /api/passkeys/* (server/routes/api/passkeys.ts).
// A passkey sign-in is settled on the device as any other: adoptSignUp (src/sync/auth.ts).
import { z } from 'zod';
import { DataError, isDataError } from '../db/storage/errors';
import type { Session } from '../db/types';
import { passkeyListSchema, passkeySchema, type Passkey } from '../shared/passkeys';
import { signInResponseSchema } from '../shared/protocol';
import type * as WebAuthnBrowser from '@simplewebauthn/browser';
import { createApi, needsConnection, type SyncApi } from './api';

const defaultApi = (): SyncApi => createApi((input, init) => fetch(input, init));

/** The server's options, passed to the browser as they came (its library checks them). */
const optionsSchema = z.looseObject({ challenge: z.string() });

function sender(api: SyncApi): NonNullable<SyncApi['send']> {
  if (!api.send) throw new Error('This client cannot send passkey requests.');
  return api.send.bind(api);
}

/**
 * The browser's prompt's failure in the vocabulary: cancelled or timed out (the person chose not to,
 * said quietly), a passkey this authenticator already holds for the account, or not accepted.
 */
function promptError(error: unknown): DataError {
  const { name, code } = error as { name?: string; code?: string };
  const cause = (error as { cause?: { name?: string } }).cause?.name;
  if (name === 'NotAllowedError' || cause === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return new DataError('passkey_cancelled', { cause: error });
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return new DataError('passkey_exists', { cause: error });
  return new DataError('passkey_failed', { cause: error });
}

/** Runs `work` with the device offline said as `offline_passkey`, as the organisation's sign-in says `offline_sso` (api.ts). */
const online = <T>(work: () => Promise<T>): Promise<T> => needsConnection('offline_passkey', work);

/**
 * One WebAuthn ceremony: the server's options from `path` (fetched while the browser's library
 * loads), then the browser's prompt through `prompt`; its answer, or the prompt's failure in the vocabulary.
 */
async function ceremony(
  send: NonNullable<SyncApi['send']>,
  path: string,
  prompt: (browser: typeof WebAuthnBrowser, optionsJSON: never) => Promise<unknown>,
) {
  const [browser, options] = await Promise.all([import('@simplewebauthn/browser'), send('POST', path, {}, optionsSchema)]);
  try {
    return await prompt(browser, options as never);
  } catch (error) {
    throw promptError(error);
  }
}

/**
 * Signs in with a passkey this browser offers (discoverable: no email asked); the device then takes
 * the member. 'two-step' when the server asks for the two-step code next (/login?step=code).
 */
export async function signInWithPasskey(api = defaultApi()): Promise<Session | 'two-step'> {
  const send = sender(api);
  return online(async () => {
    const response = await ceremony(send, '/api/passkeys/login/options', (browser, optionsJSON) =>
      browser.startAuthentication({ optionsJSON }),
    );
    const { user, twoStep } = await send('POST', '/api/passkeys/login', { response }, signInResponseSchema);
    // A passkey whose authenticator did not verify the user, of a member with two-step verification on.
    if (twoStep || !user) return 'two-step';
    return (await import('./auth')).adoptSignUp(user, api);
  });
}

/** Adds a passkey to the signed-in member's account (the browser's prompt makes it). */
export async function addPasskey(api = defaultApi()): Promise<Passkey> {
  const send = sender(api);
  return online(async () => {
    const response = await ceremony(send, '/api/passkeys/register/options', (browser, optionsJSON) =>
      browser.startRegistration({ optionsJSON }),
    );
    return (await send('POST', '/api/passkeys/register', { response }, z.object({ passkey: passkeySchema }))).passkey;
  });
}

/** The member's passkeys, oldest first. */
export const listPasskeys = async (api = defaultApi()): Promise<Passkey[]> =>
  (await sender(api)('GET', '/api/passkeys', undefined, passkeyListSchema)).passkeys;

/** Removes one of the member's passkeys (one already gone counts as removed). */
export async function removePasskey(id: string, api = defaultApi()): Promise<void> {
  try {
    await online(() => sender(api)('DELETE', `/api/passkeys/${encodeURIComponent(id)}`, undefined, null));
  } catch (error) {
    if (!isDataError(error, 'passkey_not_found')) throw error;
  }
}
