// @vitest-environment happy-dom
// Each stored snapshot carries its content's SHA-256 (SNAPSHOT_ID_HEADER), by which the service
// worker reuses the page it composed from it (src/sw/composed-pages.ts): the same snapshot stored
// again keeps its id, any change to it gives another.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FORUM_SNAPSHOT_URL, SNAPSHOT_ID_HEADER } from '../../../src/db/contracts';
import { clearForumSnapshot, saveSnapshot, snapshotGeneration } from '../../../src/db/storage/forum-snapshot';

/** Cache Storage keeping what each put stored: its body and its id header. */
function recordingCaches() {
  const puts: { url: string; body: string; id: string | null }[] = [];
  const cache = {
    put: async (url: string, response: Response) =>
      void puts.push({ url, body: await response.text(), id: response.headers.get(SNAPSHOT_ID_HEADER) }),
    delete: async () => true,
    keys: async () => [],
  };
  return { puts, api: { open: async () => cache, has: async () => true, delete: async () => true } };
}

afterEach(() => {
  clearForumSnapshot();
  vi.unstubAllGlobals();
});

describe("a stored snapshot's id", () => {
  it("is its stored content's SHA-256: the same for the same snapshot, another once it changes", async () => {
    const caches = recordingCaches();
    vi.stubGlobal('caches', caches.api);
    const snapshot = { owner: 'ana@example.com', css: '/assets/index.css', html: '<article><h2>One</h2></article>' };
    await saveSnapshot(FORUM_SNAPSHOT_URL, snapshot, snapshotGeneration());
    await saveSnapshot(FORUM_SNAPSHOT_URL, snapshot, snapshotGeneration());
    await saveSnapshot(FORUM_SNAPSHOT_URL, { ...snapshot, html: '<article><h2>Two</h2></article>' }, snapshotGeneration());

    expect(caches.puts).toHaveLength(3);
    const [first, again, changed] = caches.puts;
    expect(first.id).toBe(createHash('sha256').update(first.body).digest('hex'));
    expect(again.id).toBe(first.id);
    expect(changed.id).toBe(createHash('sha256').update(changed.body).digest('hex'));
    expect(changed.id).not.toBe(first.id);
  });
});
