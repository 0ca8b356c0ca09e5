// The toast that follows Submit Post: its sentence says where the post is (issue 59, item 7).
import type { SyncState } from '../../sync/status';

/**
 * What submitting a new post did, in the words of its toast: a connected device that is offline
 * keeps the post until the network is back, so nothing reached an admin yet (issue 59, item 7).
 */
export function submittedToast(state: SyncState, online: boolean) {
  const waiting = state !== 'local' && (state === 'offline' || !online);
  return {
    title: 'Post Submitted!',
    description: waiting
      ? 'Your post is kept on this device: it will be sent to an admin for review when this device is back online.'
      : 'Your post is now pending approval from an admin.',
  };
}
