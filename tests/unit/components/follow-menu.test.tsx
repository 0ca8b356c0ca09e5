// @vitest-environment happy-dom
// The "Follow" menu (issue 62): its button's accessible description is the member's current level
// (Normal when they set none), its items carry what each level does, and a choice is the `follow`
// operation (queued on the device, so it works offline).
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { FOLLOW_LEVEL_HINTS } from '../../../src/shared/follows';
import { signInAsMember } from '../factories';

const runOperation = vi.hoisted(() => vi.fn(async () => ({})));
vi.mock('../../../src/db/ops/run-later', () => ({ runOperation }));

const { FollowMenu } = await import('../../../src/components/follow/follow-menu');

afterEach(() => {
  cleanup();
  runOperation.mockClear();
});

const button = () => screen.getByRole('button', { name: 'Follow' });
const description = () => document.getElementById(button().getAttribute('aria-describedby') ?? '')?.textContent;

describe('FollowMenu', () => {
  it('describes the button by the current level: Normal when none is set, then the level set here or elsewhere', async () => {
    const member = signInAsMember();
    render(<FollowMenu kind="post" target="7" />);
    await waitFor(() => expect(description()).toBe('Normal'));
    expect(button().textContent).toBe('Follow');
    await db.follows.put({ email: member.email, kind: 'post', target: '7', level: 'watching', at: 1 });
    await waitFor(() => expect(description()).toBe('Watching'));
    // Seen on the button too; its name stays Follow.
    expect(button().textContent).toBe('Follow· Watching');
    await db.follows.put({ email: member.email, kind: 'post', target: '7', level: 'muted', at: 2 });
    await waitFor(() => expect(button().textContent).toBe('Follow· Muted'));
  });

  it('lists Watching, Normal and Muted with their hints; choosing one sends the follow operation', async () => {
    signInAsMember();
    render(<FollowMenu kind="category" target="Trends" />);
    fireEvent.click(button());
    expect(button().getAttribute('aria-haspopup')).toBe('menu');
    const muted = await screen.findByRole('menuitemradio', { name: new RegExp(`^Muted ${FOLLOW_LEVEL_HINTS.muted.replace('.', '\\.')}`) });
    expect(screen.getByRole('menu', { name: 'Follow' })).toBeTruthy();
    expect(screen.getByRole('menuitemradio', { name: /^Watching/ }).textContent).toContain(FOLLOW_LEVEL_HINTS.watching);
    expect(screen.getByRole('menuitemradio', { name: /^Normal/ }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('menuitemradio', { name: /^Watching/ }).getAttribute('aria-checked')).toBe('false');
    // Not also aria-selected (not allowed on a radio menu item).
    for (const item of screen.getAllByRole('menuitemradio')) expect(item.hasAttribute('aria-selected'), item.textContent!).toBe(false);
    fireEvent.click(muted);
    await waitFor(() => expect(runOperation).toHaveBeenCalledWith('follow', { kind: 'category', target: 'Trends', level: 'muted' }));
  });

  it('shows the level a post takes from its category or tags until it has its own, and choosing one sets its own', async () => {
    const member = signInAsMember();
    render(<FollowMenu kind="post" target="7" of={{ category: 'Trends', tags: ['NPS', 'b2b'] }} />);
    await waitFor(() => expect(description()).toBe('Normal'));
    await db.follows.put({ email: member.email, kind: 'tag', target: 'b2b', level: 'watching', at: 1 });
    await waitFor(() => expect(description()).toBe('Watching, from its tags'));
    await db.follows.put({ email: member.email, kind: 'category', target: 'Trends', level: 'muted', at: 2 });
    await waitFor(() => expect(description()).toBe('Muted, from its category'));
    expect(button().textContent).toBe('Follow· Muted');
    fireEvent.click(button());
    expect((await screen.findByRole('menuitemradio', { name: /^Muted/ })).getAttribute('aria-checked')).toBe('true');
    // The level shown, chosen, becomes the post's own (it stays when the category's changes).
    fireEvent.click(screen.getByRole('menuitemradio', { name: /^Muted/ }));
    await waitFor(() => expect(runOperation).toHaveBeenCalledWith('follow', { kind: 'post', target: '7', level: 'muted' }));
    // The post's own level wins, and is not said to come from elsewhere.
    await db.follows.put({ email: member.email, kind: 'post', target: '7', level: 'normal', at: 3 });
    await waitFor(() => expect(description()).toBe('Normal'));
    expect(button().textContent).toBe('Follow');
  });

  it('choosing the level already set sends nothing', async () => {
    signInAsMember();
    render(<FollowMenu kind="post" target="7" />);
    await waitFor(() => expect(description()).toBe('Normal'));
    fireEvent.click(button());
    fireEvent.click(await screen.findByRole('menuitemradio', { name: /^Normal/ }));
    expect(runOperation).not.toHaveBeenCalled();
  });
});
