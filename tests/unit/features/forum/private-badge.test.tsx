// @vitest-environment happy-dom
// The "Private" badge (issue 61): a post in a private category shows it on its forum card and on its
// page; its accessible description names the groups that can see it, by the names this device holds
// (an admin's: every group; a member's: their own), and says "other groups" for the rest, never a name
// the device does not hold. Live: a category made private, or a group renamed, shows at once.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { db, type CategoryRow, type GroupRow } from '../../../../src/db/storage/schema';
import { ForumPost } from '../../../../src/features/forum/forum-post';
import { PostView } from '../../../../src/features/post/post-view';
import { privateDescription } from '../../../../src/components/private-badge';
import { makePost, signInAsAdmin, signInAsMember } from '../../factories';

afterEach(() => cleanup());

const VENDORS = '11111111-1111-4111-8111-111111111111';
const LEADS = '22222222-2222-4222-8222-222222222222';

const room = (see: string[] | null, overrides: Partial<CategoryRow> = {}): CategoryRow => ({
  id: 'c1',
  name: 'Vendor room',
  description: '',
  position: 6,
  archived: false,
  see,
  post: null,
  hidden: 0,
  seq: 2,
  ...overrides,
});

const group = (id: string, name: string, member: 0 | 1): GroupRow => ({
  id,
  name,
  description: '',
  createdAt: 1,
  updatedAt: 1,
  member,
  seq: 1,
});

function renderCard(category = 'c1') {
  return render(
    <MemoryRouter>
      <ForumPost
        post={makePost({ id: 7, title: 'Panel costs', category })}
        email="member@example.com"
        saved={false}
        isNew={false}
        query={undefined}
      />
    </MemoryRouter>,
  );
}

describe('the Private badge', () => {
  it('on a member’s card names the group they are in and says "other groups" for the one their device does not hold', async () => {
    signInAsMember();
    await db.groups.put(group(VENDORS, 'Panel vendors', 1));
    await db.categories.put(room([LEADS, VENDORS]));
    renderCard();
    const badge = await screen.findByText('Private');
    expect(badge).toHaveProperty('tagName', 'SPAN');
    expect(screen.getByText('Vendor room')).toBeTruthy();
    await waitFor(() => expect(badge.getAttribute('aria-describedby')).toBeTruthy());
    const description = document.getElementById(badge.getAttribute('aria-describedby')!)!.textContent;
    expect(description).toBe('Only members of Panel vendors or other groups can see this post.');
    // Nothing of the group the device does not hold: not its id either.
    expect(document.body.innerHTML).not.toContain(LEADS);
  });

  it('on an admin’s post page names every group, by name, and follows a rename live', async () => {
    const admin = signInAsAdmin();
    await db.groups.bulkPut([group(VENDORS, 'Panel vendors', 0), group(LEADS, 'Agency leads', 0)]);
    await db.categories.put(room([VENDORS, LEADS]));
    const noop = () => undefined;
    render(
      <MemoryRouter>
        <PostView post={makePost({ id: 8, title: 'Vendor pricing', category: 'c1' })} viewer={admin} onEdit={noop} onDeleted={noop} />
      </MemoryRouter>,
    );
    const badge = await screen.findByText('Private');
    const described = () => document.getElementById(badge.getAttribute('aria-describedby')!)?.textContent;
    await waitFor(() => expect(described()).toBe('Only members of Agency leads or Panel vendors can see this post.'));
    await db.groups.put(group(LEADS, 'Client insight team', 0));
    await waitFor(() => expect(described()).toBe('Only members of Client insight team or Panel vendors can see this post.'));
  });

  it('shows no badge in a category everyone sees, and shows it as soon as the category becomes private', async () => {
    signInAsMember();
    await db.groups.put(group(VENDORS, 'Panel vendors', 1));
    await db.categories.put(room(null));
    renderCard();
    // The name comes with the device's copy (the six only until it is read; a list read before may show first).
    expect(await screen.findByText('Vendor room')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Private')).toBeNull());
    await db.categories.put(room([VENDORS], { seq: 3 }));
    expect(await screen.findByText('Private')).toBeTruthy();
  });

  it('shows no badge on a card of one of the spec’s six, which everyone sees', async () => {
    signInAsMember();
    await db.categories.put(room([VENDORS]));
    renderCard('Trends');
    expect(screen.getByText('Trends')).toBeTruthy();
    // The lazily loaded list has been read once the private category's row is in it: the Trends card still has no badge.
    await waitFor(async () => expect((await import('../../../../src/db/groups/category-list')).currentCategories()).toHaveLength(7));
    expect(screen.queryByText('Private')).toBeNull();
  });
});

describe('privateDescription', () => {
  it('says one group, several, the others unnamed, and none held', () => {
    expect(privateDescription({ names: ['Panel vendors'], others: false })).toBe('Only members of Panel vendors can see this post.');
    expect(privateDescription({ names: ['A', 'B', 'C'], others: false })).toBe('Only members of A, B or C can see this post.');
    expect(privateDescription({ names: ['A'], others: true })).toBe('Only members of A or other groups can see this post.');
    expect(privateDescription({ names: [], others: true })).toBe('Only members of the groups chosen for its category can see this post.');
  });
});
