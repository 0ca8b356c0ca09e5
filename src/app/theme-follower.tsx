import { useEffect } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { applyColorMode, DARK_QUERY } from '../boot/color-mode';
import { readTheme } from '../db/preferences/preferences';

/**
 * Draws the page in the signed-in member's theme as it changes: chosen here, in another tab or on
 * another device (the data layer stores it; this reads it live), and as the system's setting
 * changes while the theme is System. Until the first read the boot script's choice stands.
 */
export function ThemeFollower({ email }: { email: string }) {
  const theme = useLiveQuery(() => readTheme(email), [email]);
  useEffect(() => {
    if (theme === undefined) return undefined;
    const apply = () => applyColorMode(theme);
    apply();
    const query = matchMedia(DARK_QUERY);
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [theme]);
  return null;
}
