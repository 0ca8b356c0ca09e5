import { useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncStatus } from '../../hooks/use-sync-status';
import { isConnectedDevice } from '../../db/ops/sync-meta';

/**
 * A post this connected device does not hold (issue 44: it keeps a window of the forum) is asked
 * from the server once, online, when its page opens, and kept; true while that request runs. The
 * post then shows from the device, or the page says it is not available (the server has none for
 * this member). Offline nothing is asked. A local-only device unpacks the post when it holds it packed.
 */
export function useServerPost(postId: number | null, missing: boolean, email: string): boolean {
  const status = useSyncStatus().state;
  const [answered, setAnswered] = useState<number | null>(null);
  const running = useRef<number | null>(null);
  // Local-only, a post packed on the device (db/posts/packed.ts) is unpacked, online or not. (A
  // connected device's status is 'local' too before its sync starts: it asks nothing until then.)
  const connected = useLiveQuery(() => isConnectedDevice(), []);
  const local = status === 'local' && connected === false;
  const online = status !== 'local' && status !== 'offline';
  const ask = missing && (local || online) && postId !== null && answered !== postId;
  useEffect(() => {
    if (!ask || postId === null || running.current === postId) return;
    running.current = postId;
    void (async () => {
      try {
        if (local) await (await import('../../db/posts/packed')).unpackPost(postId);
        else await (await import('../../sync/window')).fetchPost(postId, email);
      } catch {
        // Not found, or the network dropped: the page says the post is not available.
      } finally {
        running.current = null;
        setAnswered(postId);
      }
    })();
  }, [ask, postId, email, local]);
  return ask;
}
