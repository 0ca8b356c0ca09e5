import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { memberPostsOnDevice, memberProfileOnDevice } from '../../db/members/members';
import { isDataError } from '../../db/storage/errors';
import { useSyncStatus } from '../../hooks/use-sync-status';
import type { MemberProfile } from '../../shared/members';
import { fetchMemberProfile } from '../../sync/server-reads';

/** How many of a member's posts their page lists. */
export const MEMBER_POSTS_SHOWN = 50;

export interface MemberView {
  /** undefined while the device is read. */
  profile: MemberProfile | null | undefined;
  posts: Awaited<ReturnType<typeof memberPostsOnDevice>> | undefined;
  /** Where the figures come from: the server (every post), or this device only. */
  source: 'server' | 'device';
  /** True once the server said there is no such member (or, local-only, nothing here is by them). */
  notFound: boolean;
}

/**
 * A member's page: what this device holds at once (offline too), then, on a connected device
 * that is online, the server's figures (every post, not only those on this device).
 */
export function useMember(id: string): MemberView {
  const local = useLiveQuery(async () => ({ profile: await memberProfileOnDevice(id) }), [id]);
  const posts = useLiveQuery(() => memberPostsOnDevice(id, MEMBER_POSTS_SHOWN), [id]);
  const sync = useSyncStatus().state;
  const connected = sync !== 'local';
  const reachable = connected && sync !== 'offline';
  const [server, setServer] = useState<{ id: string; profile: MemberProfile | null; failed?: boolean } | null>(null);
  useEffect(() => {
    if (!reachable) return undefined;
    let stopped = false;
    fetchMemberProfile(id).then(
      (profile) => {
        if (!stopped) setServer({ id, profile });
      },
      (error: unknown) => {
        if (!stopped) setServer({ id, profile: null, failed: !isDataError(error, 'member_not_found') });
      },
    );
    return () => {
      stopped = true;
    };
  }, [id, reachable]);
  const fromServer = server?.id === id ? server : null;
  if (fromServer && !fromServer.failed) {
    return { profile: fromServer.profile, posts, source: 'server', notFound: fromServer.profile === null };
  }
  // Nothing here by them while the server is still being asked: not "not found" yet.
  const waiting = reachable && !fromServer && local?.profile === null;
  return {
    profile: waiting ? undefined : local?.profile,
    posts,
    source: 'device',
    notFound: !waiting && local !== undefined && local.profile === null,
  };
}
