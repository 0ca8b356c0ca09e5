import { newerVersionDeployed, reloadApp } from './reload';

/**
 * The full-page screen for a failure nothing else caught (the root error boundary, the router's
 * error element): our own words and a Reload that saves drafts first, never the router's default.
 */
export function CrashScreen() {
  const updated = newerVersionDeployed();
  return (
    <main className="container py-5 text-center" id="main">
      <h1 className="h3">{updated ? 'A new version is available' : 'Something went wrong'}</h1>
      <p className="text-body-secondary">
        {updated
          ? 'Insight Exchange was updated since this page opened. Reload to get the new version; your posts are safe on this device.'
          : 'Insight Exchange hit an unexpected problem. Your posts are safe on this device.'}
      </p>
      <button type="button" className="btn btn-primary" onClick={() => void reloadApp()}>
        Reload
      </button>
    </main>
  );
}
