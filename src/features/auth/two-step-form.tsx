// Sign In's second step (issue 63): after a right password (or the organisation's sign-in, which
// comes back to /login?step=code), a field "Code" and a button "Verify"; the link "Use a recovery
// code" switches the field to "Recovery code" (and back): the step and the field are in the address
// (`?step=code`, `&use=recovery`), so both are real links and survive a reload. A right code signs in
// as a password does; a late one (five minutes) goes back to the password.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { isDataError } from '../../db/storage/errors';
import { ERRORS } from '../../shared/errors';
import { isAppCode, TOTP } from '../../shared/two-step-rules';

interface Props {
  /** The member is signed in. */
  onDone: () => void;
  /** Back to the first step (the code step expired, or the member chose another way). */
  onBack: () => void;
}

export function TwoStepForm({ onDone, onBack }: Props) {
  const id = useId();
  const showToast = useToast();
  const [params] = useSearchParams();
  // Where the sign-in goes afterwards (Share's draft) rides along the links.
  const { state } = useLocation();
  const recovery = params.get('use') === 'recovery';
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  // The other field starts empty.
  const [shown, setShown] = useState(recovery);
  if (shown !== recovery) {
    setShown(recovery);
    setValue('');
    setProblem(undefined);
  }
  useEffect(() => field.current?.focus(), [recovery]);
  const label = recovery ? 'Recovery code' : 'Code';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const given = value.trim();
    const wrong = recovery
      ? given
        ? undefined
        : 'Enter one of your recovery codes.'
      : isAppCode(given)
        ? undefined
        : `Enter the ${TOTP.digits}-digit code from your authenticator app.`;
    setProblem(wrong);
    if (wrong) return field.current?.focus();
    setBusy(true);
    try {
      const { verifyTwoStep } = await import('../../sync/two-step');
      await verifyTwoStep(recovery ? { recoveryCode: given } : { code: given.replace(/\s+/g, '') });
      showToast({ title: 'Success', description: 'Logged in successfully!' });
      onDone();
    } catch (error) {
      setBusy(false);
      showToast(errorToast(error));
      if (isDataError(error, 'two_step_expired')) return onBack();
      setValue('');
      requestAnimationFrame(() => field.current?.focus());
    }
  };

  return (
    <div className="card app-auth-card">
      <div className="card-body">
        <h1 className="h3 mb-1">Two-step verification</h1>
        <p className="text-body-secondary mb-4">
          {recovery ? 'Enter one of the recovery codes you saved. Each works once.' : ERRORS.two_step_needed.message}
        </p>
        <form onSubmit={onSubmit} aria-label="Two-step verification" noValidate>
          <div className="mb-3">
            <label className="form-label" htmlFor={`${id}-code`}>
              {label}
            </label>
            <input
              id={`${id}-code`}
              ref={field}
              className={`form-control form-control-lg${problem ? ' is-invalid' : ''}`}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              autoComplete="one-time-code"
              inputMode={recovery ? 'text' : 'numeric'}
              maxLength={recovery ? 40 : 12}
              spellCheck={false}
              aria-invalid={problem !== undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
              disabled={busy}
            />
            {problem && (
              <div className="invalid-feedback" id={`${id}-problem`}>
                {problem}
              </div>
            )}
          </div>
          <button type="submit" className="btn btn-primary btn-lg w-100" disabled={busy} aria-busy={busy || undefined}>
            {busy && <Spinner className="me-2" />}
            {busy ? 'Verifying…' : 'Verify'}
          </button>
        </form>
        <div className="d-flex justify-content-between mt-3">
          <Link to={recovery ? '?step=code' : '?step=code&use=recovery'} replace state={state}>
            {recovery ? 'Use a code from your app' : 'Use a recovery code'}
          </Link>
          <button type="button" className="btn btn-link p-0" onClick={onBack} disabled={busy}>
            Back to sign in
          </button>
        </div>
      </div>
    </div>
  );
}
