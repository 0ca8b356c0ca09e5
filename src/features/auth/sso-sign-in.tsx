// Signing in with the organisation on /login (issue 63, connected mode): the button "Sign in with
// {label}" (from GET /api/auth/methods, remembered for offline display; offline it says that the
// network is needed instead of leaving), and the states of the provider's return: `sso=done` (the
// device takes the session the server opened), `sso=name` (a first sign-in's name, the one offered
// prefilled), `sso=link` (an account has this email: its password, once, links it), `sso=error` (the
// code's sentence). With OIDC_ONLY members see no password form and no Create Account: a small
// "Admin sign-in" shows the password form for the admin. The password form itself is `children`.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '../../components/spinner';
import { errorToast } from '../../components/toast/error-toast';
import { useToast } from '../../components/toast/toast-context';
import { paths } from '../../config/paths';
import { clearStop } from '../../db/members/stop-notice';
import { isDataError } from '../../db/storage/errors';
import { useAsyncValue } from '../../hooks/use-async-value';
import { useMode } from '../../hooks/use-mode';
import { ERRORS, isErrorCode, messageOf, titleOf } from '../../shared/errors';
import { LIMITS } from '../../shared/post-rules';
import type { SsoPending } from '../../shared/sign-in';
import { ssoButtonWords } from '../../shared/sign-in-words';

/** The toast after a password sign-in that linked the organisation's account (`/login?sso=link`). */
export const SSO_LINKED_TOAST = {
  title: 'Accounts linked',
  description: 'Your organisation’s account is now linked: next time, you can sign in with it.',
};

const sso = () => import('../../sync/sso');

/** An app path to go to after signing in (the server checked it too; a link could carry anything). */
const appPath = (value: string | null) =>
  value && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') ? value : paths.home;

/** One alert for a refusal: the code's sentence (an unknown code: sso_failed's). */
function Refusal({ error }: { error: { title: string; message: string } }) {
  return (
    <div role="alert" className="alert alert-danger">
      <strong>{error.title}.</strong> {error.message}
    </div>
  );
}

/** `children(noSignUp)`: the password form, told whether Create Account is offered. */
export function SsoSignIn({ children }: { children: (noSignUp: boolean) => ReactNode }) {
  const connected = useMode() === 'connected';
  const [params] = useSearchParams();
  const state = params.get('sso');
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

  if (connected && state === 'done') return <SsoDone onFailure={setFailure} refusal={refusal} />;
  if (connected && state === 'name') return <SsoName />;

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

/** `/login?sso=done`: the server opened the session; the device takes it, then goes on. */
function SsoDone({
  onFailure,
  refusal,
}: {
  onFailure: (error: { title: string; message: string }) => void;
  refusal?: { title: string; message: string };
}) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const showToast = useToast();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    const to = appPath(params.get('return'));
    sso()
      .then((module) => module.takeSsoSession())
      .then(
        () => {
          clearStop();
          showToast({ title: 'Success', description: 'Signed in with your organisation.' });
          navigate(to, { replace: true });
        },
        (error: unknown) => onFailure(isDataError(error) ? { title: error.title, message: error.message } : ERRORS.sso_failed),
      );
  }, [params, navigate, showToast, onFailure]);
  if (refusal)
    return (
      <>
        <Refusal error={refusal} />
        <button type="button" className="btn btn-link p-0" onClick={() => navigate(paths.login, { replace: true })}>
          Back to sign in
        </button>
      </>
    );
  return (
    <div role="status" className="card app-auth-card">
      <div className="card-body">
        <Spinner className="me-2" />
        Signing you in…
      </div>
    </div>
  );
}

/** `/login?sso=name`: a first sign-in's name (the provider's was taken, or not one a member may have). */
function SsoName() {
  const navigate = useNavigate();
  const showToast = useToast();
  const id = useId();
  const pending = useAsyncValue((): Promise<SsoPending | null> => sso().then((module) => module.readSsoPending()), {
    key: 'sso-pending',
    fallback: null,
  });
  const [name, setName] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const suggested = pending?.value?.suggestedName ?? '';
  const shown = name ?? suggested;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(undefined);
    try {
      await (await sso()).finishSsoName(shown);
      clearStop();
      showToast({ title: 'Welcome!', description: 'Your account is ready.' });
      navigate(paths.home, { replace: true });
    } catch (error) {
      setBusy(false);
      if (isDataError(error, 'name_taken') || isDataError(error, 'invalid')) return setProblem(error.message);
      showToast(errorToast(error));
    }
  };

  if (pending && pending.value === null) return <Refusal error={ERRORS.sso_failed} />;
  return (
    <div className="card app-auth-card">
      <div className="card-body">
        <h1 className="h3 mb-1">Choose your name</h1>
        <p className="text-body-secondary mb-4">
          Your name on this forum is taken or cannot be used{pending?.value ? ` (${pending.value.email})` : ''}. Keep the one offered, or
          change it.
        </p>
        <form onSubmit={onSubmit} aria-label="Choose your name">
          <div className="mb-4">
            <label className="form-label" htmlFor={`${id}-name`}>
              Name
            </label>
            <input
              id={`${id}-name`}
              className={`form-control${problem ? ' is-invalid' : ''}`}
              value={shown}
              onChange={(event) => setName(event.target.value)}
              autoComplete="name"
              maxLength={LIMITS.name}
              aria-invalid={problem !== undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
              disabled={busy || !pending}
            />
            {problem && (
              <div className="invalid-feedback" id={`${id}-problem`}>
                {problem}
              </div>
            )}
          </div>
          <button
            type="submit"
            className="btn btn-primary btn-lg w-100"
            disabled={busy || !pending || !shown.trim()}
            aria-busy={busy || undefined}
          >
            {busy && <Spinner className="me-2" />}
            Continue
          </button>
        </form>
      </div>
    </div>
  );
}
