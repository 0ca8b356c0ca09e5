import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSearchClient, type Channel } from '../../../../src/db/search/client';
import type { SearchRequest } from '../../../../src/db/search/protocol';
import { makePost, storePosts } from '../../factories';
import { fakeTimeouts } from '../../timers';

afterEach(() => {
  vi.useRealTimers();
});

describe('the search client service', () => {
  it('searches in the page where no worker can start; start → stop leaves no timer running', async () => {
    fakeTimeouts();
    await storePosts(makePost({ id: 1, title: 'Conjoint pricing' }), makePost({ id: 2, title: 'Diary studies' }));
    const client = startSearchClient(() => undefined, []);
    await expect(client.search('conjoint', 'All')).resolves.toEqual({ ids: [1], replies: {} });
    // Dexie's live query (the engine follows new posts) starts on a 0 ms timer of its own.
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    client.stop();
    // Unsubscribing lets Dexie release its query cache on a one-shot 3 s timer of its own; once
    // it has run, nothing of the client is left (an interval or a re-armed timer would remain).
    await vi.advanceTimersByTimeAsync(3_000);
    expect(vi.getTimerCount()).toBe(0);
    await expect(client.search('diary', 'All')).rejects.toThrow('Search has stopped.');
  });

  it('stop closes the worker and refuses the questions still waiting', async () => {
    const sent: SearchRequest[] = [];
    const channel: Channel = { postMessage: (request) => sent.push(request), close: vi.fn() };
    const client = startSearchClient(() => undefined, [() => channel]);
    const waiting = client.search('anything', 'All');
    expect(sent).toEqual([{ type: 'search', id: 1, query: 'anything', category: 'All', me: null }]);
    client.stop();
    expect(channel.close).toHaveBeenCalledTimes(1);
    await expect(waiting).rejects.toThrow('Search has stopped.');
  });

  it('answers each question from the worker by its id, and passes on "changed"', async () => {
    let receive: ((event: MessageEvent) => void) | undefined;
    const changed = vi.fn();
    const client = startSearchClient(changed, [
      (onMessage) => {
        receive = onMessage;
        return { postMessage: () => undefined, close: () => undefined };
      },
    ]);
    const first = client.search('a', 'All');
    const second = client.search('b', 'All');
    receive?.(new MessageEvent('message', { data: { type: 'result', id: 2, ids: [7, 5], replies: { 5: 'r-1' } } }));
    receive?.(new MessageEvent('message', { data: { type: 'failed', id: 1, message: 'Index unreadable' } }));
    receive?.(new MessageEvent('message', { data: { type: 'changed' } }));
    await expect(second).resolves.toEqual({ ids: [7, 5], replies: { 5: 'r-1' } });
    await expect(first).rejects.toThrow('Index unreadable');
    expect(changed).toHaveBeenCalledTimes(1);
    client.stop();
  });
});
