// The home page (`/`) as markup, rendered at build time from the app's own components
// (vite.config.ts writes it into index.html, see src/boot/home-prerender-names.ts): the visitor's page, as the app's first render draws
// it, so the browser paints it before any JavaScript and the app replaces it without a visible
// change. Runs in Node, at build time only.
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PublicLayout } from '../components/layouts/public-layout';
import { AuthContext, type AuthValue } from '../features/auth/auth-context';
import { HomePage } from '../pages/home';

const refuse = () => Promise.reject(new Error('The prerendered home page signs nobody in.'));

/** A visitor: nobody signed in, nothing loading. */
const visitor: AuthValue = {
  user: null,
  loading: false,
  isAuthenticated: false,
  roleSettled: true,
  signedOutElsewhere: false,
  login: refuse,
  signup: refuse,
  logout: refuse,
};

/** The markup of `/` inside the public layout (header, page, footer), as a visitor first sees it. */
export function renderHome(): string {
  return renderToStaticMarkup(
    <AuthContext.Provider value={visitor}>
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route element={<PublicLayout signedIn={false} />}>
            <Route index element={<HomePage />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </AuthContext.Provider>,
  );
}
