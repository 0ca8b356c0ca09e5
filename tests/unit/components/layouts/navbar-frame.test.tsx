// @vitest-environment happy-dom
// The phone's menu (☰): Escape closes it from its toggle or from inside it, and the focus goes back
// to the toggle (a trial's keyboard pass: Escape did nothing); Escape elsewhere leaves it open.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { NavbarFrame } from '../../../../src/components/layouts/navbar-frame';

afterEach(cleanup);

function renderMenu() {
  render(
    <MemoryRouter>
      <NavbarFrame id="menu-under-test" brandTo="/" quick={<button type="button">Outside the menu</button>}>
        <a href="/forum">Forum</a>
      </NavbarFrame>
    </MemoryRouter>,
  );
  return screen.getByRole('button', { name: 'Menu' });
}

describe('NavbarFrame', () => {
  it('Escape inside the open menu closes it and takes the focus back to the toggle', () => {
    const toggle = renderMenu();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const link = screen.getByRole('link', { name: 'Forum' });
    link.focus();
    fireEvent.keyDown(link, { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
    // From the toggle itself too.
    fireEvent.click(toggle);
    fireEvent.keyDown(toggle, { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('Escape outside the menu (another control of the header) leaves it open', () => {
    const toggle = renderMenu();
    fireEvent.click(toggle);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Outside the menu' }), { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });
});
