import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { PageLoading } from '../page-loading';

/**
 * Where a layout shows its screen. A screen whose code is still loading shows Loading... here, so
 * the header and footer around it stay (a navigation keeps the screen it leaves until then).
 */
export function ScreenOutlet() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}
