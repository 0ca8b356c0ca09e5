// The admin's requests to the server (connected mode, protocol 6): the Members tab's reads, the staff
// log and the member limits. What the admin does to a member is an operation (db/moderation/members.ts),
// queued and pushed like any other; these only read (and set the limits). Errors are the app's usual
// ones: `offline` when the server cannot be reached, the server's own code and sentence otherwise.

import type { AdminMember, AdminMemberDetail, StaffLogPage } from '../shared/protocol';
import { createApi, type LimitRuleShape, type LimitsAnswer, type SyncApi } from './api';

const defaultApi = (): SyncApi => createApi((input, init) => fetch(input, init));

/** The method `name` of the client, which every real client has (test doubles may leave it out). */
function method<K extends keyof SyncApi>(api: SyncApi, name: K): NonNullable<SyncApi[K]> {
  const found = api[name];
  if (!found) throw new Error(`This client cannot ${String(name)}.`);
  return (found as (...args: never[]) => unknown).bind(api) as NonNullable<SyncApi[K]>;
}

/** Members whose name or email holds `query`, newest first (every member for a blank query). */
export const findMembers = (query: string, api: SyncApi = defaultApi()): Promise<AdminMember[]> => method(api, 'adminMembers')(query);

/** One member with their recent posts, replies and the flags they raised. */
export const readMember = (id: string, api: SyncApi = defaultApi()): Promise<AdminMemberDetail> => method(api, 'adminMember')(id);

/** A page of the staff log, newest first (before the entry `before`). */
export const readStaffLog = (before?: number, api: SyncApi = defaultApi()): Promise<StaffLogPage> => method(api, 'staffLog')(before);

/** Every member limit now, and its default. */
export const readLimits = (api: SyncApi = defaultApi()): Promise<LimitsAnswer> => method(api, 'limits')();

/** Sets every changed member limit in one request, all or none (each written to the staff log); answers every limit now. */
export const setLimits = (limits: Record<string, LimitRuleShape>, api: SyncApi = defaultApi()): Promise<LimitsAnswer> =>
  method(api, 'setLimits')(limits);
