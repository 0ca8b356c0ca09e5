import { describe, expect, it, vi } from 'vitest';
import { startSearchClient } from '../../../../src/db/search/client';
import { asBulkWrite } from '../../../../src/db/storage/changes';
import type { SearchRequest } from '../../../../src/db/search/protocol';

// The page's watch on the posts is replaced by one the test fires, so the order of events is exact.
const watch = vi.hoisted(() => ({ listeners: new Set<() => void>() }));
vi.mock('../../../../src/db/search/watch', () => ({
  watchPostChanges: (listener: () => void) => {
    watch.listeners.add(listener);
    return () => watch.listeners.delete(listener);
  },
}));
const postsChanged = () => watch.listeners.forEach((listener) => listener());

function clientWithWorker() {
  const sent: SearchRequest[] = [];
  const client = startSearchClient(() => undefined, [() => ({ postMessage: (request) => sent.push(request), close: () => undefined })]);
  client.warm();
  return { client, refreshes: () => sent.filter((request) => request.type === 'refresh').length };
}

describe('the search index during a bulk write (an import)', () => {
  it('is told to catch up once, when the bulk write ends, not after each chunk', async () => {
    const { client, refreshes } = clientWithWorker();
    postsChanged();
    expect(refreshes()).toBe(1);
    let finish!: () => void;
    const bulk = asBulkWrite(() => new Promise<void>((resolve) => (finish = resolve)));
    postsChanged();
    postsChanged();
    postsChanged();
    expect(refreshes()).toBe(1);
    finish();
    await bulk;
    expect(refreshes()).toBe(2);
    postsChanged();
    expect(refreshes()).toBe(3);
    client.stop();
    expect(watch.listeners.size).toBe(0);
  });

  it('sends nothing at the end when nothing changed, and a failed or cancelled bulk write still ends the hold', async () => {
    const { client, refreshes } = clientWithWorker();
    await asBulkWrite(async () => undefined);
    expect(refreshes()).toBe(0);
    await expect(
      asBulkWrite(async () => {
        postsChanged();
        throw new DOMException('The operation was cancelled.', 'AbortError');
      }),
    ).rejects.toThrow('cancelled');
    expect(refreshes()).toBe(1);
    postsChanged();
    expect(refreshes()).toBe(2);
    client.stop();
  });
});
