import type { ReactNode } from 'react';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';
import { ScreenOutlet } from './screen-outlet';
import { SkipLink } from './skip-link';

/** Header, page and footer of the public area (/, /about, /login). */
export function PublicLayout({ signedIn, banner }: { signedIn: boolean; banner?: ReactNode }) {
  return (
    <div className="app-page">
      <SkipLink />
      <PublicHeader signedIn={signedIn} />
      {banner}
      <main id="main" className="app-main" tabIndex={-1}>
        <ScreenOutlet />
      </main>
      <PublicFooter signedIn={signedIn} />
    </div>
  );
}
