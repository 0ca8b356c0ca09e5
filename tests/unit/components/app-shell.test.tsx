// @vitest-environment happy-dom
// A silenced member is not offered New Post (issue 59, item 7): the header shows it only with a way to open it.
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppShell } from '../../../src/components/layouts/app-shell';

afterEach(cleanup);

const shell = (onNewPost?: () => void) =>
  render(
    <MemoryRouter>
      <AppShell isAdmin={false} onNewPost={onNewPost} onNewPostIntent={() => undefined} onLogout={() => undefined}>
        <p>Page</p>
      </AppShell>
    </MemoryRouter>,
  );

describe('the header’s New Post', () => {
  it('is offered to a member who may write (phone and wide layouts)', () => {
    shell(() => undefined);
    expect(screen.getAllByRole('button', { name: 'New Post' })).toHaveLength(2);
  });

  it('is not offered while the member is silenced', () => {
    shell(undefined);
    expect(screen.queryAllByRole('button', { name: 'New Post' })).toHaveLength(0);
  });
});
