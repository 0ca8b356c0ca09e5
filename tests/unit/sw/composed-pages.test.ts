// The service worker's memory of the pages it composed from a snapshot (src/sw/composed-pages.ts):
// answered again only for the very snapshot stored (its id header), never for a new, removed or
// unmarked one, and at most COMPOSED_PAGES_KEPT pages.
import { describe, expect, it, vi } from 'vitest';
import { SNAPSHOT_ID_HEADER } from '../../../src/db/contracts';
import { COMPOSED_HEADER, COMPOSED_PAGES_KEPT, composedPages } from '../../../src/sw/composed-pages';

/** A stored snapshot entry whose body must never be read on the memory path. */
function stored(id: string | null): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (id !== null) headers[SNAPSHOT_ID_HEADER] = id;
  const response = new Response('{"html":"x"}', { headers });
  vi.spyOn(response, 'json').mockRejectedValue(new Error('the body was read'));
  vi.spyOn(response, 'text').mockRejectedValue(new Error('the body was read'));
  return response;
}

/** A composer that counts its calls and answers `body`, marked with `id` when given. */
function composer(body: string, id: string | null) {
  const compose = vi.fn(async () => {
    const headers: Record<string, string> = { 'content-type': 'text/html' };
    if (id !== null) headers[COMPOSED_HEADER] = id;
    return new Response(body, { headers });
  });
  return compose;
}

describe('composedPages', () => {
  it('answers the same snapshot again from memory, its body unread and nothing composed', async () => {
    const pages = composedPages();
    const first = composer('<p>page a</p>', 'a');
    const answered = await pages.answer('/forum', stored('a'), first);
    expect(await answered.text()).toBe('<p>page a</p>');
    expect(answered.headers.get(COMPOSED_HEADER)).toBeNull();

    const again = composer('never', 'a');
    const second = await pages.answer('/forum', stored('a'), again);
    expect(again).not.toHaveBeenCalled();
    expect(await second.text()).toBe('<p>page a</p>');
    expect(second.headers.get('content-type')).toBe('text/html');
    expect(second.headers.get(COMPOSED_HEADER)).toBeNull();
  });

  it('composes again once the stored snapshot is another one, or gone', async () => {
    const pages = composedPages();
    await pages.answer('/forum', stored('a'), composer('<p>a</p>', 'a'));
    const changed = composer('<p>b</p>', 'b');
    expect(await (await pages.answer('/forum', stored('b'), changed)).text()).toBe('<p>b</p>');
    expect(changed).toHaveBeenCalledTimes(1);

    const gone = composer('<p>shell</p>', null);
    expect(await (await pages.answer('/forum', undefined, gone)).text()).toBe('<p>shell</p>');
    // Written again with the old id's page forgotten: composed, not the memory of `b`.
    const back = composer('<p>b2</p>', 'b');
    expect(await (await pages.answer('/forum', stored('b'), back)).text()).toBe('<p>b2</p>');
    expect(back).toHaveBeenCalledTimes(1);
  });

  it('keeps no page for a snapshot without an id, or a page the composer did not mark as carrying it', async () => {
    const pages = composedPages();
    await pages.answer('/forum', stored(null), composer('<p>old</p>', null));
    const noId = composer('<p>old</p>', null);
    await pages.answer('/forum', stored(null), noId);
    expect(noId).toHaveBeenCalledTimes(1);

    // The snapshot was not put in (another build's stylesheet): the plain shell, not kept.
    await pages.answer('/posts/1', stored('c'), composer('<p>shell</p>', null));
    const unmarked = composer('<p>shell</p>', null);
    await pages.answer('/posts/1', stored('c'), unmarked);
    expect(unmarked).toHaveBeenCalledTimes(1);
  });

  it('keeps each path apart, forgets everything on clear, and keeps at most COMPOSED_PAGES_KEPT', async () => {
    const pages = composedPages();
    await pages.answer('/forum', stored('f'), composer('<p>forum</p>', 'f'));
    const post = composer('<p>post</p>', 'f');
    expect(await (await pages.answer('/posts/1', stored('f'), post)).text()).toBe('<p>post</p>');
    expect(post).toHaveBeenCalledTimes(1);

    pages.clear();
    const cleared = composer('<p>forum</p>', 'f');
    await pages.answer('/forum', stored('f'), cleared);
    expect(cleared).toHaveBeenCalledTimes(1);

    for (let i = 1; i <= COMPOSED_PAGES_KEPT; i += 1) await pages.answer(`/posts/${i}`, stored(`p${i}`), composer('<p/>', `p${i}`));
    // /forum was used least lately: it went; the last post page is still kept.
    const forum = composer('<p>forum</p>', 'f');
    await pages.answer('/forum', stored('f'), forum);
    expect(forum).toHaveBeenCalledTimes(1);
    const last = composer('never', `p${COMPOSED_PAGES_KEPT}`);
    await pages.answer(`/posts/${COMPOSED_PAGES_KEPT}`, stored(`p${COMPOSED_PAGES_KEPT}`), last);
    expect(last).not.toHaveBeenCalled();
  });
});
