// Signing in with the organisation on /login (issue 63, connected mode): the button "Sign in with
// {label}" (from GET /api/auth/methods, remembered for offline display; offline it says that the
// network is needed instead of leaving), and the states of the provider's return: `sso=done` (the
// device takes the session the server opened), `sso=name` (a first sign-in's name, the one offered
// prefilled), `sso=link` (an account has this email: its password, once, links it), `sso=error` (the
// code's sentence). With OIDC_ONLY members see no password form and no Create Account: a small
// "Admin sign-in" shows the password form for the admin. The password form itself is `children`.
// The return's two screens (`sso=done`, `sso=name`) are in sso-return.tsx, loaded only there.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageLoading } from '../../components/page-loading';
import { appPath, Refusal, sso } from './sso-parts';
import type * as SsoReturn from './sso-return';
import { Spinner } from '../../components/spinner';
import { isDataError } from '../../db/storage/errors';
import { useAsyncValue } from '../../hooks/use-async-value';
import { useMode } from '../../hooks/use-mode';
import { ERRORS, isErrorCode, messageOf, titleOf } from '../../shared/errors';
import { ssoButtonWords } from '../../shared/sign-in-words';

/** The toast after a password sign-in that linked the organisation's account (`/login?sso=link`). */
export const SSO_LINKED_TOAST = {
  title: 'Accounts linked',
  description: 'Your organisation’s account is now linked: next time, you can sign in with it.',
};

// The provider's return (sso=done, sso=name) is one page load of a connected device: its screens'
// code loads there only (issue 64, item 2: off the way from /login to the forum).
let ssoReturn: Promise<typeof SsoReturn> | undefined;
const loadSsoReturn = () => (ssoReturn ??= import('./sso-return'));
const SsoDone = lazy(() => loadSsoReturn().then((m) => ({ default: m.SsoDone })));
const SsoName = lazy(() => loadSsoReturn().then((m) => ({ default: m.SsoName })));

/** `children(noSignUp)`: the password form, told whether Create Account is offered. */
export function SsoSignIn({ children }: { children: (noSignUp: boolean) => ReactNode }) {
  const connected = useMode() === 'connected';
  const [params] = useSearchParams();
  const state = params.get('sso');
  // Only the provider's redirect carries these: their screens' code starts loading before the mode is known.
  if (state === 'done' || state === 'name') void loadSsoReturn();
  const methods = useAsyncValue(connected ? () => sso().then((module) => module.readAuthMethods()) : undefined, {
    key: 'auth-methods',
  })?.value;
  // A refusal of this page's own (offline, the session not taken); else the provider's return's.
  const [failure, setFailure] = useState<{ title: string; message: string }>();
  const [adminOpen, setAdminOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const code = params.get('code') ?? 'sso_failed';
  const returned =
    state === 'error' ? (isErrorCode(code) ? { title: titleOf(code), message: messageOf(code) } : ERRORS.sso_failed) : undefined;
  const refusal = failure ?? returned;

  if (connected && state === 'done')
    return (
      <Suspense fallback={<PageLoading />}>
        <SsoDone onFailure={setFailure} refusal={refusal} />
      </Suspense>
    );
  if (connected && state === 'name')
    return (
      <Suspense fallback={<PageLoading />}>
        <SsoName />
      </Suspense>
    );

  const start = async () => {
    setFailure(undefined);
    try {
      const module = await sso();
      await module.startOrganisationSignIn(appPath(params.get('return')), undefined, (url) => {
        setLeaving(true);
        window.location.assign(url);
      });
    } catch (error) {
      setFailure(isDataError(error) ? { title: error.title, message: error.message } : ERRORS.offline_sso);
    }
  };
  const ssoOnly = connected && methods?.ssoOnly === true && state !== 'link';
  // One shape whatever the mode: the mode is known only after a moment, and the password form must
  // keep what was typed meanwhile (a different shape would make it anew, empty).
  return (
    <>
      {connected && refusal && <Refusal error={refusal} />}
      {connected && state === 'link' && (
        <div role="status" className="alert alert-info">
          <strong>{ERRORS.sso_link_needed.title}.</strong> {ERRORS.sso_link_needed.message}
        </div>
      )}
      {connected && methods?.sso && state !== 'link' && (
        <div className="card app-auth-card mb-3">
          <div className="card-body">
            <button
              type="button"
              className="btn btn-primary btn-lg w-100"
              onClick={() => void start()}
              disabled={leaving}
              aria-busy={leaving || undefined}
            >
              {leaving && <Spinner className="me-2" />}
              {ssoButtonWords(methods.sso.label)}
            </button>
          </div>
        </div>
      )}
      {ssoOnly ? (
        <>
          <p className="text-center">
            <button type="button" className="btn btn-link small" aria-expanded={adminOpen} onClick={() => setAdminOpen((open) => !open)}>
              Admin sign-in
            </button>
          </p>
          {adminOpen && children(true)}
        </>
      ) : (
        children(false)
      )}
    </>
  );
}
