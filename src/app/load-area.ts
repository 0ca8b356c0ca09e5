import { lazyScreen } from './lazy-screen';

/**
 * The protected area's frame with everything that reads the device's data (protected-area.tsx): its
 * code loads beside its route's (router.tsx) or, on a new browser's first /forum, after the forum's
 * first frame (protected-route.tsx). Rendered at once once loaded, never through React.lazy's
 * fallback and 300 ms hold; a failed load is tried again by a later mount (lazyScreen).
 */
export const protectedAreaScreen = lazyScreen('/*', () => import('./protected-area').then((module) => module.ProtectedArea));
