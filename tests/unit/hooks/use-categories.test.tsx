// @vitest-environment happy-dom
// The categories on the forum (issue 61): a card names its category by the device's copy (an admin's
// rename shows at once, live), and the Category select offers All and the categories the member may
// see, by name; the six of the spec until the copy is read, and when nothing changed them.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { db } from '../../../src/db/storage/schema';
import { PostMeta } from '../../../src/components/post-meta';
import { ForumToolbar } from '../../../src/features/forum/forum-toolbar';
import { categoryRow, makePost, signInAs, storePosts } from '../factories';
import { SavedPosts } from '../../../src/features/profile/saved-posts';
import { setSaved } from '../../../src/db/saved/saved';

afterEach(async () => {
  cleanup();
  await db.categories.clear();
});

const options = () =>
  within(screen.getByLabelText('Category'))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('categories on the forum', () => {
  it('names a card’s category by its id, live: a rename shows without a reload', async () => {
    render(
      <MemoryRouter>
        <PostMeta post={makePost({ id: 1, category: 'Trends' })} />
      </MemoryRouter>,
    );
    expect(screen.getByText('Trends')).toBeTruthy();
    await db.categories.put({
      id: 'Trends',
      name: 'Market trends',
      description: '',
      position: 3,
      archived: false,
      see: null,
      post: null,
      hidden: 0,
      seq: 2,
    });
    expect(await screen.findByText('Market trends')).toBeTruthy();
  });

  it('Saved Posts names a post’s category as the forum does, not by the id a category the admins made is kept by', async () => {
    const LAB = '6f1b2c3d-0000-4000-8000-00000000cafe';
    await db.categories.put(categoryRow(LAB, 'Panel Lab'));
    signInAs('saver@example.com', 'Saver');
    await storePosts(makePost({ id: 9, title: 'Kept for later', author: 'Ana', category: LAB }));
    await setSaved('saver@example.com', 9, true);
    render(
      <MemoryRouter>
        <SavedPosts email="saver@example.com" />
      </MemoryRouter>,
    );
    const item = (await screen.findByRole('link', { name: 'Kept for later' })).closest('li')!;
    await waitFor(() => expect(item.textContent).toContain('Panel Lab'));
    expect(item.textContent).not.toContain(LAB);
  });

  it('offers All and the six, then the categories the server sent (a hidden one left out), in order', async () => {
    const noop = () => undefined;
    render(<ForumToolbar search="" category="All" onSearchChange={noop} onCategoryChange={noop} onQueryEdit={noop} />);
    expect(options()).toEqual(['All', 'Quantitative', 'Qualitative', 'AI & Technology', 'Trends', 'Best Practices', 'Case Studies']);
    await db.categories.bulkPut([
      { id: 'c1', name: 'Vendor room', description: '', position: 6, archived: false, see: ['g1'], post: null, hidden: 0, seq: 2 },
      { id: 'Case Studies', name: '', description: '', position: 0, archived: false, see: null, post: null, hidden: 1, seq: 3 },
      { id: 'Quantitative', name: 'Numbers', description: '', position: 9, archived: false, see: null, post: null, hidden: 0, seq: 4 },
    ]);
    await waitFor(() =>
      expect(options()).toEqual(['All', 'Qualitative', 'AI & Technology', 'Trends', 'Best Practices', 'Vendor room', 'Numbers']),
    );
  });
});
