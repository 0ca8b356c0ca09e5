import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/main.scss';
import { App } from './app/app';

// The first render runs as a transition, so React renders in slices and the page stays
// responsive (no single long task) while the app starts.
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
