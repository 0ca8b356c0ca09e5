// The provider's return on /login (issue 63, connected mode; loaded by sso-sign-in.tsx only there):
// `sso=done` (the device takes the session the server opened) and `sso=name` (a first sign-in's
// name, the one offered prefilled).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '../../components/spinner';
import { errorToast } from '../../components/toast/error-toast';
import { useToast } from '../../components/toast/toast-context';
import { paths } from '../../config/paths';
import { clearStop } from '../../db/members/stop-notice';
import { isDataError } from '../../db/storage/errors';
import { useAsyncValue } from '../../hooks/use-async-value';
import { ERRORS } from '../../shared/errors';
import { LIMITS } from '../../shared/post-rules';
import type { SsoPending } from '../../shared/sign-in';
import { appPath, Refusal, sso } from './sso-parts';

/** `/login?sso=done`: the server opened the session; the device takes it, then goes on. */
export function SsoDone({
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
export function SsoName() {
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
