// Two-step verification's requests (issue 63, connected mode only): the sign-in's code step (after a
// right password, or the organisation's sign-in), Profile's panel (status, setup, Turn on, Turn off,
// new recovery codes) and the admin's "Require two-step verification for staff". Errors are the
// app's usual ones (`offline`, or the server's code and sentence).
import type { z } from 'zod';
import { sessionResponseSchema } from '../shared/protocol';
import type { TwoStepRequest } from '../shared/sign-in';
import {
  recoveryCodesSchema,
  securitySettingsSchema,
  twoStepSetupSchema,
  twoStepStatusSchema,
  type SecuritySettings,
  type TwoStepSetup,
  type TwoStepStatus,
} from '../shared/two-step';
import { DataError } from '../db/storage/errors';
import { createApi, isOffline, type SyncApi } from './api';

const defaultApi = (): SyncApi => createApi((input, init) => fetch(input, init));

function sender(api: SyncApi): NonNullable<SyncApi['send']> {
  if (!api.send) throw new Error('This client cannot send two-step requests.');
  return api.send.bind(api);
}

/**
 * The sign-in's second step: the code (or a recovery code) for the first factor this browser just
 * passed; the device then takes the member as any sign-in does (no password at hand: no offline
 * verifier). Offline, the code cannot be checked: said plainly.
 */
export async function verifyTwoStep(given: TwoStepRequest, api = defaultApi()) {
  let answer: z.infer<typeof sessionResponseSchema>;
  try {
    answer = await sender(api)('POST', '/api/session/two-step', given, sessionResponseSchema);
  } catch (error) {
    if (isOffline(error)) throw new DataError('offline_two_step');
    throw error;
  }
  return (await import('./auth')).adoptSignUp(answer.user, api);
}

export const readTwoStep = (api = defaultApi()): Promise<TwoStepStatus> =>
  sender(api)('GET', '/api/account/two-step', undefined, twoStepStatusSchema);

/** A new key for the member's authenticator app (nothing is on until a code from it is given). */
export const startTwoStepSetup = (api = defaultApi()): Promise<TwoStepSetup> =>
  sender(api)('POST', '/api/account/two-step/setup', {}, twoStepSetupSchema);

/** Turns it on with the app's code; answers the ten recovery codes (shown once). This device keeps no offline verifier for `email` from now on. */
export async function enableTwoStep(code: string, email: string, api = defaultApi()): Promise<string[]> {
  const { recoveryCodes } = await sender(api)('POST', '/api/account/two-step/enable', { code: code.trim() }, recoveryCodesSchema);
  await (await import('../db/sync/offline-accounts')).forgetVerifierForTwoStep(email).catch(() => undefined);
  return recoveryCodes;
}

export const disableTwoStep = (given: TwoStepRequest, api = defaultApi()): Promise<void> =>
  sender(api)('POST', '/api/account/two-step/disable', given, null);

/** Ten new recovery codes (the old ones end). */
export const newRecoveryCodes = async (given: TwoStepRequest, api = defaultApi()): Promise<string[]> =>
  (await sender(api)('POST', '/api/account/two-step/recovery-codes', given, recoveryCodesSchema)).recoveryCodes;

export const readSecuritySettings = (api = defaultApi()): Promise<SecuritySettings> =>
  sender(api)('GET', '/api/admin/security', undefined, securitySettingsSchema);

export const setSecuritySettings = (settings: SecuritySettings, api = defaultApi()): Promise<SecuritySettings> =>
  sender(api)('PUT', '/api/admin/security', settings, securitySettingsSchema);
