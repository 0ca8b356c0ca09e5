// The system notifications the app shows (a post's title on the screen and in the system's list) are
// outside every store of the app: lost access closes those of the posts lost (revoked.test.ts), and a
// sign-out or a sign-in as another member closes them all (a review: a private post's title stayed in
// the system's list after a sign-out); a new name for the same member closes none.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeSystemNotifications } from '../../../../src/db/storage/system-notifications';
import { saveSession } from '../../../../src/db/members/session';
import { signInAs } from '../../factories';
import { fakeCaches } from '../../fake-caches';

let shown: { data: { url: string } | null; closed: boolean; close: () => void }[];
const open = () => shown.filter((notice) => !notice.closed).map((notice) => notice.data?.url ?? null);
const notices = () =>
  ['/posts/7', '/posts/7#reply-r1', '/posts/70', null].map((url) => {
    const notice = { data: url === null ? null : { url }, closed: false, close: () => (notice.closed = true) };
    return notice;
  });
let asked = 0;

beforeEach(() => {
  shown = notices();
  asked = 0;
  const registration = {
    getNotifications: async () => {
      asked += 1;
      return shown.filter((notice) => !notice.closed);
    },
  };
  vi.stubGlobal('navigator', { serviceWorker: { getRegistration: async () => registration } });
  vi.stubGlobal('caches', fakeCaches().api);
});
afterEach(() => vi.unstubAllGlobals());

describe('the system notifications', () => {
  it('of some posts: those whose page is one of them close, by its address (post 70 is not post 7)', async () => {
    await closeSystemNotifications([7]);
    expect(open()).toEqual(['/posts/70', null]);
  });

  it('a sign-out, or a sign-in as another member, closes every one; a new name for the same member none', async () => {
    const mia = signInAs('mia@example.com', 'Mia');
    await vi.waitFor(() => expect(asked).toBe(1));
    shown = notices();
    saveSession({ ...mia, name: 'Mia Chen' });
    signInAs('noor@example.com', 'Noor');
    await vi.waitFor(() => expect(open()).toEqual([]));
    expect(asked).toBe(2);
    shown = notices();
    saveSession(null);
    await vi.waitFor(() => expect(open()).toEqual([]));
    expect(asked).toBe(3);
  });

  it('no service worker, or none of its notifications: nothing to do', async () => {
    vi.stubGlobal('navigator', {});
    await expect(closeSystemNotifications('all')).resolves.toBeUndefined();
    vi.stubGlobal('navigator', { serviceWorker: { getRegistration: async () => ({}) } });
    await expect(closeSystemNotifications([7])).resolves.toBeUndefined();
  });
});
