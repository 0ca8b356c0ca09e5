// @vitest-environment happy-dom
// The Categories tab (issue 61, item 2): the spec's six (built in) under what the server sent (a
// rename, an archive, a private category), New category with "Name", "Description", "Who can see"
// (Everyone, or Only these groups with a checkbox per group) and "Who can post", Edit, Archive and
// Move; local-only's sentence.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastContext } from '../../../../src/components/toast/toast-context';
import { db } from '../../../../src/db/storage/schema';

const mode = vi.hoisted(() => ({ value: 'connected' as 'connected' | 'local' }));
vi.mock('../../../../src/hooks/use-mode', () => ({ useMode: () => mode.value }));
const ops = vi.hoisted(() => ({ createCategory: vi.fn(), editCategory: vi.fn(), moveCategory: vi.fn(), archiveCategory: vi.fn() }));
vi.mock('../../../../src/db/groups/groups', async (original) => ({ ...(await original<object>()), ...ops }));

const { CategoriesPanel } = await import('../../../../src/features/admin/categories-panel');

const VENDORS = '0d000000-0000-4000-8000-0000000000d1';

beforeEach(async () => {
  mode.value = 'connected';
  ops.moveCategory.mockResolvedValue(undefined);
  ops.archiveCategory.mockResolvedValue(undefined);
  await db.groups.put({ id: VENDORS, name: 'Panel vendors', description: '', createdAt: 1, updatedAt: 1, member: 0, seq: 1 });
  await db.categories.bulkPut([
    {
      id: 'Trends',
      name: 'Market trends',
      description: 'What moves.',
      position: 3,
      archived: false,
      see: null,
      post: null,
      hidden: 0,
      seq: 2,
    },
    { id: 'Case Studies', name: 'Case Studies', description: '', position: 5, archived: true, see: null, post: null, hidden: 0, seq: 3 },
    { id: 'c1', name: 'Vendor room', description: '', position: 6, archived: false, see: [VENDORS], post: null, hidden: 0, seq: 4 },
  ]);
});
afterEach(async () => {
  cleanup();
  vi.clearAllMocks();
  await db.groups.clear();
  await db.categories.clear();
});

function show() {
  const toast = vi.fn();
  render(
    <ToastContext.Provider value={toast}>
      <CategoriesPanel />
    </ToastContext.Provider>,
  );
  return toast;
}

const rows = async () => within(await screen.findByRole('list', { name: 'Categories' })).getAllByRole('listitem');

describe('the Categories tab', () => {
  it('lists the six under the server’s word, in order, with who sees and posts in each', async () => {
    show();
    const items = await rows();
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Quantitative ',
      'Qualitative ',
      'AI & Technology ',
      'Market trends ',
      'Best Practices ',
      'Case Studies Archived',
      'Vendor room Private',
    ]);
    expect(items[6]!.textContent).toContain('Who can see: Panel vendors. Who can post: everyone who can see it.');
    fireEvent.click(within(items[5]!).getByRole('button', { name: 'Bring back Case Studies' }));
    fireEvent.click(within(items[0]!).getByRole('button', { name: 'Archive Quantitative' }));
    await waitFor(() => expect(ops.archiveCategory).toHaveBeenCalledWith('Case Studies', false));
    expect(ops.archiveCategory).toHaveBeenCalledWith('Quantitative', true);
    fireEvent.click(within(items[3]!).getByRole('button', { name: 'Move Market trends up' }));
    await waitFor(() => expect(ops.moveCategory).toHaveBeenCalledWith('Trends', 2));
    expect(ops.moveCategory).toHaveBeenCalledWith('AI & Technology', 3);
  });

  it('New category: only the groups checked see it; a category with no group checked is refused first', async () => {
    const toast = show();
    fireEvent.click(await screen.findByRole('button', { name: 'New category' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New category' }));
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'Pricing' } });
    fireEvent.change(dialog.getByLabelText('Description'), { target: { value: 'Vendor prices.' } });
    const see = within(dialog.getByRole('group', { name: 'Who can see' }));
    fireEvent.click(see.getByLabelText('Only these groups'));
    fireEvent.click(dialog.getByRole('button', { name: 'Create category' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Choose a group', variant: 'error' })));
    expect(ops.createCategory).not.toHaveBeenCalled();
    fireEvent.click(see.getByLabelText('Panel vendors'));
    fireEvent.click(dialog.getByRole('button', { name: 'Create category' }));
    await waitFor(() =>
      expect(ops.createCategory).toHaveBeenCalledWith({ name: 'Pricing', description: 'Vendor prices.', see: [VENDORS], post: null }, 7),
    );
  });

  it('Edit renames a category of the six (its id stays)', async () => {
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Qualitative' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit category' }));
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'Qual' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(ops.editCategory).toHaveBeenCalledWith('Qualitative', { name: 'Qual', description: '', see: null, post: null }),
    );
  });

  it('on a local-only device says categories need the server', async () => {
    mode.value = 'local';
    show();
    expect(await screen.findByText('Groups and categories need the server')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New category' })).toBeNull();
  });
});
