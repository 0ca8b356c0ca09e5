import { useEffect } from 'react';
import { useRouteError } from 'react-router-dom';
import { CrashScreen } from '../components/crash-screen';

/** The router's error element: a screen that failed to load (a chunk missing after a deploy) or to render. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => console.error('Route failure', error), [error]);
  return <CrashScreen />;
}
