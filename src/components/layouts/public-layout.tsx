import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';
import { SkipLink } from './skip-link';

/** Header, page and footer of the public area (/, /about, /login). */
export function PublicLayout({ signedIn, banner }: { signedIn: boolean; banner?: ReactNode }) {
  return (
    <div className="app-page">
      <SkipLink />
      <PublicHeader signedIn={signedIn} />
      {banner}
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
      <PublicFooter />
    </div>
  );
}
