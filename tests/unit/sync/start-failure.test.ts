// A connected device whose sync engine's code cannot load (a chunk missing offline, a broken
// deploy) says so: its lists wait for a first sync (hooks/use-first-sync.ts), which would otherwise
// spin for ever under a header that says nothing. The header shows Sync error, and Retry reloads.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { SYNC_META } from '../../../src/db/ops/sync-meta';
import { messageOf } from '../../../src/shared/errors';
import { getSyncStatus, resetSyncStatus, retrySync } from '../../../src/sync/status';
import { resetMode } from '../../../src/sync/mode';

vi.mock('../../../src/sync/connected', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

afterEach(() => {
  resetSyncStatus();
  resetMode();
  vi.unstubAllGlobals();
});

describe('sync that cannot start', () => {
  it('on a connected device: Sync error with its sentence, and Retry reloads the page', async () => {
    await db.meta.put({ key: SYNC_META.connected, value: Date.now() });
    const reload = vi.fn();
    vi.stubGlobal('location', { reload });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { startSync } = await import('../../../src/sync/start');
    await startSync();
    await vi.waitFor(() => expect(getSyncStatus()).toMatchObject({ state: 'error', message: messageOf('sync_not_started') }));
    retrySync();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
