import { useState } from 'react';
import { useLocation } from 'react-router-dom';

/** State for a collapsible phone menu that is closed again whenever the location changes. */
export function useCollapseOnNavigate(initiallyOpen?: () => boolean): [boolean, (expanded: boolean) => void] {
  const location = useLocation();
  // The menu is open only for the location it was opened at, so navigating closes it.
  const [openAt, setOpenAt] = useState<string | null>(() => (initiallyOpen?.() ? location.key : null));
  return [openAt === location.key, (expanded) => setOpenAt(expanded ? location.key : null)];
}
