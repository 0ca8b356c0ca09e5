import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/main.scss';
import { App } from './app/app';
import { preloadScreens } from './app/router';
import { releaseHiddenHomePrerender } from './boot/home-prerender-app';
import { noteMissingChunk } from './components/reload';

// A chunk that is gone after a deploy: the lazy screen fails into the routes' error boundary,
// whose crash screen then offers the new version.
window.addEventListener('vite:preloadError', noteMissingChunk);

// The home page the build wrote into the page goes now where it is hidden (off `/`); on `/` the
// live home page removes it in the commit that draws it.
releaseHiddenHomePrerender();

// The code of the screen this page opened on starts loading now, not once its frame has rendered.
preloadScreens(window.location.pathname);

// The first render runs as a transition, so React renders in slices and the page stays
// responsive (no single long task) while the app starts.
// In the build, src/boot/forum-snapshot.ts imports this module after the forum's snapshot painted.
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
