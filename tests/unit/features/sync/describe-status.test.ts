// The words of the sync status, in the header and the storage panel, including changes set aside.
import { describe, expect, it } from 'vitest';
import { describeSyncStatus, shortSyncStatus } from '../../../../src/features/sync/describe-status';

describe('the sync status in words', () => {
  it('says Synced, or how many changes wait, offline or not', () => {
    expect(describeSyncStatus({ state: 'synced', waiting: 0 })).toBe('Synced');
    expect(describeSyncStatus({ state: 'synced', waiting: 2 })).toBe('2 changes waiting');
    expect(describeSyncStatus({ state: 'offline', waiting: 1 })).toBe('Offline, 1 change waiting');
    expect(shortSyncStatus({ state: 'offline', waiting: 3 })).toBe('Offline · 3');
    // A phone's header has room for the short form only.
    expect(shortSyncStatus({ state: 'synced', waiting: 3 })).toBe('3 waiting');
  });

  it('names the changes set aside (the server kept failing on them), in full and short', () => {
    expect(describeSyncStatus({ state: 'synced', waiting: 0, setAside: 1 })).toBe('Synced, 1 change set aside');
    expect(shortSyncStatus({ state: 'synced', waiting: 0, setAside: 2 })).toBe('Set aside · 2');
    // Waiting changes come first: they are what the person acts on.
    expect(describeSyncStatus({ state: 'synced', waiting: 1, setAside: 1 })).toBe('1 change waiting');
  });
});
