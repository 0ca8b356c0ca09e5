// A member's theme and display name on this device (issue 23, "Comfort").

import type { Theme } from '../../shared/comfort';

/** The member's theme on this device: 'system' when never set. */
export async function readTheme(_email: string): Promise<Theme> {
  return 'system';
}

/** Stores the member's theme, writes THEME_COOKIE and queues `setTheme` on a connected device. */
export async function setTheme(_email: string, _theme: Theme): Promise<void> {
  throw new Error('not yet');
}

/** Writes THEME_COOKIE (path=/, 400 days, SameSite=Lax), or removes it for null. */
export function applyThemeCookie(_theme: Theme | null): void {}

/** Renames the member: account, signed-in user, their posts and replies here; queues `rename`. */
export async function renameMember(_email: string, _name: string): Promise<void> {
  throw new Error('not yet');
}
