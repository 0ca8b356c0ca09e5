// @vitest-environment happy-dom
// The public header marks the page a visitor is on: on /login, Login; on /login?mode=signup (Create
// Account), Join Now and not Login, which said "you are on Login" there (found by a new user trying
// the app, 2026-12-05).
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { PublicHeader } from '../../../../src/components/layouts/public-header';

afterEach(cleanup);

const show = (at: string) =>
  render(
    <MemoryRouter initialEntries={[at]}>
      <PublicHeader signedIn={false} />
    </MemoryRouter>,
  );

describe('the public header’s current page', () => {
  it('on /login, Login is the current page', () => {
    show('/login');
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Join Now' }).getAttribute('aria-current')).toBeNull();
  });

  it('on Create Account (/login?mode=signup), Join Now is, and Login is not', () => {
    show('/login?mode=signup');
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('aria-current')).toBeNull();
    expect(screen.getByRole('link', { name: 'Login' }).className).not.toContain('active');
    expect(screen.getByRole('link', { name: 'Join Now' }).getAttribute('aria-current')).toBe('page');
  });

  it('on the home page, neither', () => {
    show('/');
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    for (const name of ['Login', 'Join Now']) expect(screen.getByRole('link', { name }).getAttribute('aria-current')).toBeNull();
  });
});
