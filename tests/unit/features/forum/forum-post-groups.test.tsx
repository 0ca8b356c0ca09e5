// @vitest-environment happy-dom
// The forum's list renders its cards a page at a time, each page a memoized group (issue 64, item 5):
// adding a page leaves the cards of the pages above it alone (React compares nothing in them), and a
// like re-renders only the page that holds it. Rendered for real over fake-indexeddb. The cards React
// compares are counted through samePost, which each card's memo calls with the card's post: before the
// groups, each render of the list (each page added, each like) compared every card.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { approvePost, PAGE_SIZE } from '../../../../src/db/posts/posts';
import { ForumPostList } from '../../../../src/features/forum/forum-post-list';
import { stopSearchClient } from '../../../../src/db/search/client';
import { makePost, signInAsAdmin, signInAsMember, storePosts } from '../../factories';
import type * as PostCardModule from '../../../../src/components/post-card';

const compared = vi.hoisted(() => new Set<number>());

vi.mock('../../../../src/components/post-card', async (importOriginal) => {
  const actual = await importOriginal<typeof PostCardModule>();
  return {
    ...actual,
    samePost: (...args: Parameters<typeof actual.samePost>) => {
      compared.add(args[0].id);
      return actual.samePost(...args);
    },
  };
});

afterEach(() => {
  cleanup();
  stopSearchClient();
});

const EMAIL = 'member@example.com';
const cards = () => document.querySelectorAll('article').length;
/** The ids of page `n` (0: the first), newest first: posts 1..count stored, so page 0 holds the highest ids. */
const pageIds = (count: number, n: number) => Array.from({ length: PAGE_SIZE }, (_, i) => count - n * PAGE_SIZE - i);

/**
 * Loads one page more and waits until it is shown and the page it follows has been read again over its
 * now fixed range (that answer's new rows are compared with the cards: its first id is then compared).
 */
async function addPage(shown: number, count: number) {
  compared.clear();
  fireEvent.click(await screen.findByRole('button', { name: /Load more posts/ }));
  await waitFor(() => expect(cards()).toBe((shown + 1) * PAGE_SIZE));
  await waitFor(() => expect(compared.has(pageIds(count, shown - 1)[0]!)).toBe(true));
}

async function showPages(count: number, pages: number) {
  await storePosts(...Array.from({ length: count }, (_, i) => makePost({ id: i + 1, title: `Post ${i + 1}` })));
  signInAsMember();
  render(
    <MemoryRouter>
      <ForumPostList search="" category="All" email={EMAIL} since={undefined} part={false} />
    </MemoryRouter>,
  );
  await waitFor(() => expect(cards()).toBe(PAGE_SIZE));
  // The saved posts are read once the first posts are painted (useAfterFirstPosts): their answer
  // renders every group once (each Save button fills in). Counted after it, it is no card's doing.
  await waitFor(() => expect(document.querySelector('article button[aria-disabled="true"]')).toBeNull());
  for (let shown = 1; shown < pages; shown += 1) await addPage(shown, count);
}

describe('the forum list’s page groups', () => {
  it('an added page compares none of the cards of the pages above the one it follows', async () => {
    const count = PAGE_SIZE * 6;
    await showPages(count, 4);
    await addPage(4, count);
    // The cards are those of the five pages, in order.
    const shown = Array.from(document.querySelectorAll('article'), (card) => Number(card.getAttribute('data-post-id')));
    expect(shown).toEqual([0, 1, 2, 3, 4].flatMap((n) => pageIds(count, n)));
    // Pages 1–3 (0-based 0–2) were not compared at all: only the page the new one follows (read again) may be.
    for (const n of [0, 1, 2]) expect(pageIds(count, n).filter((id) => compared.has(id))).toEqual([]);
  });

  it('a like re-renders the page that holds the post and compares no other page’s cards', async () => {
    const count = PAGE_SIZE * 4;
    await showPages(count, 3);
    const liked = pageIds(count, 1)[3]!;
    compared.clear();
    await act(async () => {
      await db.posts.update(liked, { likes: 41 });
    });
    const card = document.querySelector(`article[data-post-id="${liked}"]`)!;
    await waitFor(() => expect(card.querySelector('.app-like')?.textContent ?? '').toContain('41'));
    expect(compared.has(liked)).toBe(true);
    for (const n of [0, 2]) expect(pageIds(count, n).filter((id) => compared.has(id))).toEqual([]);
  });
});

describe('the forum list’s page groups in a search', () => {
  it('new results keep the cards shown past the first page, their elements and the focus in them', async () => {
    const count = PAGE_SIZE * 3;
    await storePosts(
      ...Array.from({ length: count }, (_, i) => makePost({ id: i + 1, title: `Conjoint study ${i + 1}` })),
      makePost({ id: count + 1, title: 'Conjoint study late', status: 'pending' }),
    );
    signInAsMember();
    render(
      <MemoryRouter>
        <ForumPostList search="conjoint" category="All" email={EMAIL} since={undefined} part={false} />
      </MemoryRouter>,
    );
    await waitFor(() => expect(cards()).toBe(PAGE_SIZE));
    fireEvent.click(await screen.findByRole('button', { name: /Load more posts/ }));
    await waitFor(() => expect(cards()).toBe(2 * PAGE_SIZE));
    // A card well inside the second page, its title link focused.
    const card = document.querySelectorAll('article')[PAGE_SIZE + 5]!;
    const link = card.querySelector('a')!;
    act(() => link.focus());
    expect(document.activeElement).toBe(link);
    // A new matching post: the search's results change, and the rows shown are read again as one.
    signInAsAdmin();
    await act(async () => {
      await approvePost(count + 1);
    });
    await waitFor(() => expect(document.querySelector(`article[data-post-id="${count + 1}"]`)).not.toBeNull());
    expect(card.isConnected).toBe(true);
    expect(document.activeElement).toBe(link);
  });
});
