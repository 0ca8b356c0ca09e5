import { useEffect } from 'react';
import { applyColorMode, DARK_QUERY, themeFromCookie } from '../boot/color-mode';
import { useAuth } from '../features/auth/auth-context';

/**
 * Signed out, the page follows THEME_COOKIE (removed at sign-out: System) and the system's
 * setting as it changes. Signed in, ThemeFollower (in the protected area) follows the member's theme.
 */
export function VisitorTheme() {
  const { user, loading } = useAuth();
  const signedIn = loading || user !== null;
  useEffect(() => {
    if (signedIn) return undefined;
    const apply = () => applyColorMode(themeFromCookie());
    apply();
    const query = matchMedia(DARK_QUERY);
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [signedIn]);
  return null;
}
