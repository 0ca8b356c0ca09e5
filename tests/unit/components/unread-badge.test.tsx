// @vitest-environment happy-dom
// "N new" on a card (issue 62): the count of replies new to the member, kept out of the forum snapshot.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UnreadBadge } from '../../../src/components/unread-badge';
import { NOT_IN_SNAPSHOT } from '../../../src/components/new-badge';

afterEach(() => cleanup());

describe('UnreadBadge', () => {
  it('reads "N new", grouped by thousands, and stays out of the snapshot', () => {
    render(<UnreadBadge count={3} />);
    expect(screen.getByText('3 new').hasAttribute(NOT_IN_SNAPSHOT)).toBe(true);
    cleanup();
    render(<UnreadBadge count={1200} />);
    expect(screen.getByText('1,200 new')).toBeTruthy();
  });
});
