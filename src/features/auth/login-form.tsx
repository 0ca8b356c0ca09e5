import { clearStop } from '../../db/members/stop-notice';
import { lazy, Suspense, useEffect, useId, useRef, useState, type ComponentProps, type FormEvent } from 'react';
import { Spinner } from '../../components/spinner';
import { PageLoading } from '../../components/page-loading';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useToast, useWithdrawToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { paths } from '../../config/paths';
import { useMode } from '../../hooks/use-mode';
import { useAsyncValue } from '../../hooks/use-async-value';
import { LIMITS } from '../../shared/post-rules';
import { ERRORS } from '../../shared/errors';
import { isDataError } from '../../db/storage/errors';
import { MIN_PASSWORD_LENGTH, validateName, validateNewPassword, validateSignIn, validateSignUp } from '../../shared/account-rules';
import { useAuth } from './auth-context';
import { SSO_LINKED_TOAST } from './sso-sign-in';
import { Refusal } from './sso-parts';
import type { TwoStepForm as TwoStepFormType } from './two-step-form';

// The code step shows only after a server asks for a code, and the passkey button only on a connected
// device: their code loads there, never on a local-only device (issue 64, item 2: off the way from
// /login to the forum). A connected Sign In starts loading the code step with its request, so the
// step shows with the answer; a load that fails says so, with the way back to the password.
let twoStepLoad: Promise<typeof TwoStepFormType> | undefined;
let TwoStepLoaded: typeof TwoStepFormType | undefined;
function loadTwoStep(): Promise<typeof TwoStepFormType> {
  twoStepLoad ??= import('./two-step-form').then(
    (module) => (TwoStepLoaded = module.TwoStepForm),
    (error: unknown) => {
      twoStepLoad = undefined;
      throw error;
    },
  );
  return twoStepLoad;
}
const loadPasskey = () => import('./passkey-sign-in');

type CodeStepProps = ComponentProps<typeof TwoStepFormType>;

/** The code step's code could not load (the network went between the answer and it): said, with the way back. */
function CodeStepUnavailable({ onBack }: CodeStepProps) {
  return (
    <div className="card app-auth-card">
      <div className="card-body">
        <Refusal error={ERRORS.offline} />
        <button type="button" className="btn btn-link p-0" onClick={onBack}>
          Back to sign in
        </button>
      </div>
    </div>
  );
}

/** The code step: at once when its code is here (no fallback's flash), else once it loads. */
function CodeStep(props: CodeStepProps) {
  const [Form] = useState(
    () =>
      TwoStepLoaded ??
      lazy(() =>
        loadTwoStep().then(
          (TwoStepForm) => ({ default: TwoStepForm }),
          () => ({ default: CodeStepUnavailable }),
        ),
      ),
  );
  return (
    <Suspense fallback={<PageLoading />}>
      <Form {...props} />
    </Suspense>
  );
}

/** The toasts of a try of this form (ToastMessage.from): the next try takes them back. */
const FORM_TOASTS = 'sign-in-form';

type Field = 'name' | 'email' | 'password';

/**
 * One form that toggles between Sign In and Create Account (the Name field is sign-up only);
 * `noSignUp` (OIDC_ONLY: members sign in with their organisation) offers Sign In only.
 */
export function LoginForm({ noSignUp = false }: { noSignUp?: boolean }) {
  const [params, setParams] = useSearchParams();
  const mode = params.get('mode') === 'signup' && !noSignUp ? 'signup' : 'signin';
  const { login, signup } = useAuth();
  const showToast = useToast();
  const withdrawToast = useWithdrawToast();
  const navigate = useNavigate();
  // Signing in goes home, except for something shared into the app (it comes back to its draft).
  const location = useLocation();
  const from = (location.state as { from?: unknown } | null)?.from;
  const afterSignIn = typeof from === 'string' && (from === paths.share || from.startsWith(`${paths.share}?`)) ? from : paths.home;
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState<Field[]>([]);
  // The new password's rule that failed (connected Create Account), said on the field itself.
  const [passwordProblem, setPasswordProblem] = useState<string>();
  /** What is wrong with the name typed (taken, kept for the staff, an invisible character): said on the field. */
  const [nameProblem, setNameProblem] = useState<string>();
  // Create Account's answer on a connected device: the address a link was sent to.
  const [sentTo, setSentTo] = useState<string>();
  const nameRef = useRef<HTMLInputElement>(null);
  // The field takes the focus once it is enabled again (the busy form had disabled it).
  useEffect(() => {
    if (nameProblem !== undefined) nameRef.current?.focus();
  }, [nameProblem]);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const signingUp = mode === 'signup';
  // A connected server has a rule for new passwords (local-only keeps the spec's: any password).
  const connected = useMode() === 'connected';
  const passwordRule = signingUp && connected;
  // Rendered once its code is here (a failed load: no button; the password still signs in).
  const passkey = useAsyncValue(connected ? loadPasskey : undefined, { key: 'passkey-sign-in' })?.value;
  // Fetch the sign-in code now (on a connected device, the API client too), so that a phone that
  // loses its signal before pressing Sign In still gets the plain "You're offline" answer instead of
  // a failed download, and the press sends the request at once (issue 44: no download after it).
  useEffect(() => {
    import('../../sync/auth').then(
      (auth) => auth.prepareSignIn(),
      () => undefined,
    );
  }, []);
  const title = signingUp ? 'Create Account' : 'Sign In';
  // Two-step verification's code step (issue 63): after a right password, or /login?step=code after single sign-on.
  const codeStep = params.get('step') === 'code';

  const switchMode = () => {
    setMissing([]);
    setPasswordProblem(undefined);
    setNameProblem(undefined);
    setParams(signingUp ? {} : { mode: 'signup' }, { replace: true });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    // This try's answer replaces the last one's: an error toast of an earlier try no longer holds
    // (the empty fields' toast stayed beside the password field's own message, with every field filled).
    withdrawToast(FORM_TOASTS);
    setNameProblem(undefined);
    const problem = signingUp ? validateSignUp(name, email, password) : validateSignIn(email, password);
    if (problem) {
      const empty = (['name', 'email', 'password'] as const).filter((field) => {
        if (field === 'name' && !signingUp) return false;
        const value = { name, email, password }[field];
        return field === 'password' ? !value : !value.trim();
      });
      setMissing(empty);
      showToast({ title: problem.title, description: problem.message, variant: 'error', from: FORM_TOASTS });
      // Every field filled and the name refused: the name is what to change.
      const nameWrong = signingUp && empty.length === 0 && validateName(name)?.message === problem.message;
      if (nameWrong) setNameProblem(problem.message);
      ({ name: nameRef, email: emailRef, password: passwordRef })[empty[0] ?? (nameWrong ? 'name' : 'email')].current?.focus();
      return;
    }
    setMissing([]);
    const weak = passwordRule ? validateNewPassword(password) : null;
    setPasswordProblem(weak?.message);
    if (weak) {
      passwordRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      if (signingUp) {
        await signup(name, email, password);
        showToast({ title: 'Welcome!', description: 'Account created successfully!' });
      } else {
        const answer = login(email, password);
        if (connected) void loadTwoStep().catch(() => undefined);
        await answer;
        // Back from the organisation's sign-in with an account of this email: the password linked it.
        showToast(params.get('sso') === 'link' ? SSO_LINKED_TOAST : { title: 'Success', description: 'Logged in successfully!' });
      }
      clearStop();
      navigate(afterSignIn);
    } catch (error) {
      setBusy(false);
      // Connected, every address gets the same answer: a link to finish creating the account.
      if (isDataError(error, 'check_email')) return setSentTo(email.trim().toLowerCase());
      // The password was right; two-step verification asks for a code next.
      if (isDataError(error, 'two_step_needed')) return setParams({ step: 'code' }, { replace: true, state: location.state });
      // The server's password policy (a commonly used password) names the password: said on the field.
      if (passwordRule && isDataError(error, 'invalid') && /password/i.test(error.message)) {
        setPasswordProblem(error.message);
        requestAnimationFrame(() => passwordRef.current?.focus());
        return;
      }
      showToast({ ...errorToast(error), from: FORM_TOASTS });
      // The server refused the name (another member's, or kept for the staff): said on the name, to change.
      if (signingUp && (isDataError(error, 'name_taken') || (isDataError(error, 'invalid') && /^(Name|This name)\b/.test(error.message)))) {
        setNameProblem(error.message);
        return;
      }
      // Back to the password, ready for another try (the busy form had set focus aside).
      requestAnimationFrame(() => passwordRef.current?.focus());
    }
  };

  // Marked empty at Submit until something is typed in it (a trial: "Enter your name." stayed under a name).
  const typedIn: Record<Field, string> = { name, email, password };
  // (A password counts as typed with any character, spaces too, as Submit takes it.)
  const invalid = (field: Field) => missing.includes(field) && (field === 'password' ? !password : !typedIn[field].trim());
  const ruleFailed = passwordRule && passwordProblem !== undefined;
  const describedBy = (field: Field) =>
    [
      invalid(field) ? `${id}-${field}-error` : '',
      field === 'name' && nameProblem !== undefined && !invalid('name') ? `${id}-name-problem` : '',
      field === 'password' && ruleFailed ? `${id}-password-problem` : '',
      field === 'password' && passwordRule ? `${id}-password-rule` : '',
    ]
      .filter(Boolean)
      .join(' ') || undefined;

  if (codeStep && !signingUp)
    return (
      <CodeStep
        onDone={() => {
          clearStop();
          navigate(afterSignIn);
        }}
        onBack={() => setParams({}, { replace: true })}
      />
    );
  if (sentTo)
    return (
      <div className="card app-auth-card">
        <div className="card-body">
          <h1 className="h3 mb-3">{ERRORS.check_email.title}</h1>
          <div role="status" className="alert alert-info">
            {ERRORS.check_email.message}
          </div>
          <p className="text-body-secondary">
            We sent it to <strong>{sentTo}</strong>. It works once, for 24 hours; nothing is created until you open it.
          </p>
          <button type="button" className="btn btn-link p-0" onClick={() => setSentTo(undefined)}>
            Use another email
          </button>
        </div>
      </div>
    );
  const feedback = (field: Field, text: string) =>
    invalid(field) && (
      <div className="invalid-feedback" id={`${id}-${field}-error`}>
        {text}
      </div>
    );

  return (
    <div className="card app-auth-card">
      <div className="card-body">
        <h1 className="h3 mb-1">{title}</h1>
        <p className="text-body-secondary mb-4">
          {signingUp ? 'Join the community of market research professionals.' : 'Welcome back. Sign in to join the discussion.'}
        </p>
        {/* Bootstrap's classes on plain elements: react-bootstrap's Form and Button were 4 KB gzip of
            the JavaScript a member fetches on the way to the forum, for markup this simple. */}
        <form onSubmit={onSubmit} aria-label={title}>
          {signingUp && (
            <div className="mb-3">
              <label className="form-label" htmlFor={`${id}-name`}>
                Name
              </label>
              <input
                id={`${id}-name`}
                className={`form-control${invalid('name') || nameProblem !== undefined ? ' is-invalid' : ''}`}
                ref={nameRef}
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  setNameProblem(undefined);
                }}
                autoComplete="name"
                maxLength={LIMITS.name}
                aria-invalid={invalid('name') || nameProblem !== undefined}
                aria-describedby={describedBy('name')}
                disabled={busy}
              />
              {feedback('name', 'Enter your name.')}
              {nameProblem !== undefined && !invalid('name') && (
                <div className="invalid-feedback" id={`${id}-name-problem`}>
                  {nameProblem}
                </div>
              )}
            </div>
          )}
          <div className="mb-3">
            <label className="form-label" htmlFor={`${id}-email`}>
              Email
            </label>
            <input
              id={`${id}-email`}
              className={`form-control${invalid('email') ? ' is-invalid' : ''}`}
              ref={emailRef}
              type="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              autoComplete="email"
              inputMode="email"
              maxLength={LIMITS.email}
              aria-invalid={invalid('email')}
              aria-describedby={describedBy('email')}
              disabled={busy}
            />
            {feedback('email', 'Enter your email address.')}
          </div>
          <div className="mb-4">
            <label className="form-label" htmlFor={`${id}-password`}>
              Password
            </label>
            <input
              id={`${id}-password`}
              className={`form-control${invalid('password') || ruleFailed ? ' is-invalid' : ''}`}
              ref={passwordRef}
              type="password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete={signingUp ? 'new-password' : 'current-password'}
              maxLength={LIMITS.password}
              aria-invalid={invalid('password') || ruleFailed}
              aria-describedby={describedBy('password')}
              disabled={busy}
            />
            {feedback('password', 'Enter your password.')}
            {ruleFailed && !invalid('password') && (
              <div className="invalid-feedback" id={`${id}-password-problem`}>
                {passwordProblem}
              </div>
            )}
            {connected && !signingUp && (
              <div className="text-end mt-1">
                <Link to={paths.resetPassword} className="small">
                  Forgot password?
                </Link>
              </div>
            )}
            {passwordRule && (
              <small id={`${id}-password-rule`} className="form-text d-block">
                At least {MIN_PASSWORD_LENGTH} characters, and not a commonly used password.
              </small>
            )}
          </div>
          {/* Progress at once (issue 40: a sign-in can take seconds on a busy server). */}
          <button type="submit" className="btn btn-primary btn-lg w-100" disabled={busy} aria-busy={busy || undefined}>
            {busy && <Spinner className="me-2" />}
            {busy ? (signingUp ? 'Creating your account…' : 'Signing in…') : title}
          </button>
        </form>
        {connected && !signingUp && passkey && <passkey.PasskeySignIn disabled={busy} />}
        <p className="text-center mt-4 mb-0 text-body-secondary" hidden={noSignUp}>
          {signingUp ? 'Already a member?' : 'New to Insight Exchange?'}{' '}
          <button type="button" className="btn btn-link p-0 align-baseline fw-semibold" onClick={switchMode} disabled={busy}>
            {signingUp ? 'Sign in instead' : 'Create an account'}
          </button>
        </p>
      </div>
    </div>
  );
}
