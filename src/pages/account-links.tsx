// The pages an email leads to, and Forgot password (connected mode; public, signed in or not):
// /reset-password (ask for a link; with ?token=, set the new password), /confirm-email?token= and
// /unsubscribe?token=. Each says plainly what happened, and what to do when a link has expired. A
// sign-up's link and Stop emails send nothing until a button is pressed.
import { useEffect, useId, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Spinner } from '../components/spinner';
import { useToast } from '../components/toast/toast-context';
import { errorToast } from '../components/toast/error-toast';
import { paths } from '../config/paths';
import { useMode } from '../hooks/use-mode';
import { LIMITS } from '../shared/post-rules';
import { validateEmailAddress, validateName, validateNewPassword } from '../shared/validation';
import { NewPasswordField } from '../components/new-password-field';
import { isDataError } from '../db/storage/errors';
import { isSignUpToken } from '../shared/account-schemas';
import { ERRORS, SIGN_UP_PASSWORD_NOTE } from '../shared/errors';

const account = () => import('../sync/account');

function AuthCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="container app-auth">
      <div className="row justify-content-center">
        <div className="col-md-8 col-lg-5">
          <div className="card app-auth-card">
            <div className="card-body">
              <h1 className="h3 mb-3">{title}</h1>
              {children}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

/** Local-only: there is no server to send email. */
function NeedsServer() {
  return (
    <p className="mb-0">
      Password reset and email need the forum’s server. On this device accounts live in this browser only:{' '}
      <Link to={paths.login}>sign in</Link> with the password you chose here.
    </p>
  );
}

function ForgotForm() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string>();
  const showToast = useToast();
  const id = useId();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const problem = email.trim() ? validateEmailAddress(email) : { title: 'Error', message: 'Enter the email of your account.' };
    if (problem) {
      showToast({ title: problem.title, description: problem.message, variant: 'error' });
      return;
    }
    setBusy(true);
    try {
      setSent(await (await account()).requestPasswordReset(email));
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  if (sent)
    return (
      <>
        <div role="status" className="alert alert-success">
          {sent}
        </div>
        <Link to={paths.login}>Back to Sign In</Link>
      </>
    );
  return (
    <form onSubmit={onSubmit} noValidate>
      <p className="text-body-secondary">Enter the email of your account, and we will send you a link to set a new password.</p>
      <div className="mb-3">
        <label htmlFor={`${id}-email`} className="form-label">
          Email
        </label>
        <input
          id={`${id}-email`}
          className="form-control"
          type="email"
          autoComplete="email"
          value={email}
          maxLength={LIMITS.email}
          onChange={(event) => setEmail(event.target.value)}
          disabled={busy}
        />
      </div>
      <button type="submit" className="btn btn-primary w-100" disabled={busy} aria-busy={busy || undefined}>
        {busy && <Spinner className="me-2" />}
        Send reset link
      </button>
      <p className="text-center mt-3 mb-0">
        <Link to={paths.login}>Back to Sign In</Link>
      </p>
    </form>
  );
}

/** How long a link's page waits for its check before it shows its form anyway. */
export const LINK_CHECK_WAIT_MS = 5_000;

/**
 * Whether the link still works, asked once on opening without using it up: undefined while asking,
 * false when it expired or was used, true otherwise (also when the asking failed: its form then says).
 */
function useLinkWorks(token: string): boolean | undefined {
  const [works, setWorks] = useState<boolean>();
  useEffect(() => {
    let live = true;
    // A network that hangs rather than fails: the form after LINK_CHECK_WAIT_MS, as when the asking fails.
    const waited = setTimeout(() => live && setWorks((known) => known ?? true), LINK_CHECK_WAIT_MS);
    account()
      .then(({ linkWorks }) => linkWorks(token))
      .then(
        // A late answer leaves the form shown meanwhile (its Set password says so, if need be).
        (answer) => live && setWorks((known) => known ?? answer),
        () => live && setWorks(true),
      );
    return () => {
      live = false;
      clearTimeout(waited);
    };
  }, [token]);
  return works;
}

function CheckingLink() {
  return (
    <p role="status">
      <Spinner className="me-2" />
      Checking the link…
    </p>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();
  const works = useLinkWorks(token);
  const [expiredOnSend, setExpired] = useState(false);
  const expired = expiredOnSend || works === false;
  const [problem, setProblem] = useState<string>();
  const showToast = useToast();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const weak = validateNewPassword(password);
    if (weak) {
      setProblem(weak.message);
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      setDone(await (await account()).resetPassword(token, password));
    } catch (error) {
      if (isDataError(error, 'link_expired')) setExpired(true);
      else if (isDataError(error, 'invalid')) setProblem(error.message);
      else showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  if (done)
    return (
      <>
        <div role="status" className="alert alert-success">
          {done}
        </div>
        <Link className="btn btn-primary w-100" to={paths.login}>
          Sign In
        </Link>
      </>
    );
  if (expired)
    return (
      <>
        <div role="alert" className="alert alert-warning">
          This link has expired or was already used. Ask for a new one: it works once, for 30 minutes.
        </div>
        <Link to={paths.resetPassword}>Send a new reset link</Link>
      </>
    );
  if (works === undefined) return <CheckingLink />;
  return (
    <form onSubmit={onSubmit} noValidate>
      <NewPasswordField
        value={password}
        onChange={setPassword}
        problem={problem}
        disabled={busy}
        note="Every device signed in to your account will be signed out."
      />
      <button type="submit" className="btn btn-primary w-100" disabled={busy} aria-busy={busy || undefined}>
        {busy && <Spinner className="me-2" />}
        Set password
      </button>
    </form>
  );
}

export function ResetPasswordPage() {
  const token = useSearchParams()[0].get('token');
  const mode = useMode();
  return (
    <AuthCard title="Reset password">
      {mode === 'local' ? <NeedsServer /> : token ? <NewPasswordForm token={token} /> : <ForgotForm />}
    </AuthCard>
  );
}

/** What a link's page shows: what happened, and (a refusal) its code. */
interface LinkState {
  ok: boolean;
  text: string;
  code?: string;
}

/** Runs `action` with the link's token once, and shows its answer (or why it failed). */
function useLinkAction(action: (token: string) => Promise<string>) {
  const token = useSearchParams()[0].get('token');
  const [answer, setAnswer] = useState<LinkState>();
  const state = token ? answer : { ok: false, text: 'This link is not complete. Open it from the email again.' };
  useEffect(() => {
    if (!token) return;
    let live = true;
    action(token).then(
      (text) => live && setAnswer({ ok: true, text }),
      (error: unknown) => live && setAnswer(linkRefusal(error)),
    );
    return () => {
      live = false;
    };
  }, [token, action]);
  return state;
}

const linkRefusal = (error: unknown): LinkState =>
  isDataError(error)
    ? { ok: false, text: error.message, code: error.code }
    : { ok: false, text: 'Something went wrong. Try the link again in a moment.' };

function LinkAnswer({ state }: { state: LinkState | undefined }) {
  if (!state)
    return (
      <p role="status">
        <Spinner className="me-2" />
        One moment…
      </p>
    );
  return (
    <>
      <div role={state.ok ? 'status' : 'alert'} className={`alert ${state.ok ? 'alert-success' : 'alert-warning'}`}>
        {state.text}
      </div>
      <Link to={paths.forum}>Go to the forum</Link>
    </>
  );
}

const confirm = async (token: string) => (await account()).confirmEmail(token);

/**
 * A confirmation link: an address confirmed, a Change email's done, or a sign-up's account made and
 * this device signed in (issue 59). A sign-up's link sends nothing on opening: it asks for the
 * password chosen at Create Account, so a link someone else asked for makes no account, and a mail
 * scanner opening it uses nothing up.
 */
export function ConfirmEmailPage() {
  const token = useSearchParams()[0].get('token');
  return (
    <AuthCard title="Confirm email">{token && isSignUpToken(token) ? <FinishSignUpForm token={token} /> : <LinkConfirmation />}</AuthCard>
  );
}

/** An address's or a Change email's link, used on opening (a sign-up's from before its tokens were marked asks for the password). */
function LinkConfirmation() {
  const state = useLinkAction(confirm);
  const token = useSearchParams()[0].get('token');
  return token && state?.code === 'wrong_password' ? <FinishSignUpForm token={token} /> : <LinkAnswer state={state} />;
}

/** A sign-up's link: the password chosen at Create Account, then (its name taken meanwhile) another name. */
function FinishSignUpForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [taken, setTaken] = useState<string>();
  const [done, setDone] = useState<LinkState>();
  const works = useLinkWorks(token);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!password) return setProblem(SIGN_UP_PASSWORD_NOTE);
    setProblem(undefined);
    setBusy(true);
    try {
      setDone({ ok: true, text: await (await account()).confirmEmail(token, { password }) });
    } catch (error) {
      const refusal = linkRefusal(error);
      if (refusal.code === 'name_taken') setTaken(refusal.text);
      else if (refusal.code === 'wrong_password' || refusal.code === 'rate_limited') setProblem(refusal.text);
      else setDone(refusal);
    } finally {
      setBusy(false);
    }
  };
  if (done) return <LinkAnswer state={done} />;
  if (works === false) return <LinkAnswer state={{ ok: false, text: ERRORS.link_expired.message, code: 'link_expired' }} />;
  if (works === undefined) return <CheckingLink />;
  if (taken) return <NewNameForm token={token} password={password} reason={taken} onDone={setDone} />;
  return (
    <form onSubmit={onSubmit} noValidate>
      <p>{SIGN_UP_PASSWORD_NOTE}</p>
      <LinkField label="Password" problem={problem} busy={busy}>
        {(field) => (
          <input
            {...field}
            type="password"
            autoComplete="current-password"
            value={password}
            maxLength={LIMITS.password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </LinkField>
      <SubmitButton busy={busy}>Finish creating account</SubmitButton>
    </form>
  );
}

function NewNameForm({
  token,
  password,
  reason,
  onDone,
}: {
  token: string;
  password: string;
  reason: string;
  onDone: (state: LinkState) => void;
}) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const wrong = validateName(name);
    if (wrong) return setProblem(wrong.message);
    setBusy(true);
    try {
      onDone({ ok: true, text: await (await account()).confirmEmail(token, { name: name.trim(), password }) });
    } catch (error) {
      const refusal = linkRefusal(error);
      if (refusal.code === 'name_taken' || refusal.code === 'invalid') setProblem(refusal.text);
      else onDone(refusal);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <p>The name you chose was taken by another member before you opened this link. {reason}</p>
      <LinkField label="Name" problem={problem} busy={busy}>
        {(field) => (
          <input {...field} value={name} maxLength={LIMITS.name} autoComplete="name" onChange={(event) => setName(event.target.value)} />
        )}
      </LinkField>
      <SubmitButton busy={busy}>Create Account</SubmitButton>
    </form>
  );
}

/** A link form's one field: its label, and the problem said on it (aria-invalid, aria-describedby). */
function LinkField({
  label,
  problem,
  busy,
  children,
}: {
  label: string;
  problem: string | undefined;
  busy: boolean;
  children: (field: InputHTMLAttributes<HTMLInputElement>) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="mb-3">
      <label htmlFor={`${id}-field`} className="form-label">
        {label}
      </label>
      {children({
        id: `${id}-field`,
        className: `form-control${problem ? ' is-invalid' : ''}`,
        'aria-invalid': Boolean(problem),
        'aria-describedby': problem ? `${id}-problem` : undefined,
        disabled: busy,
      })}
      {problem && (
        <div className="invalid-feedback" id={`${id}-problem`}>
          {problem}
        </div>
      )}
    </div>
  );
}

function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="btn btn-primary w-100" disabled={busy} aria-busy={busy || undefined}>
      {busy && <Spinner className="me-2" />}
      {children}
    </button>
  );
}

/** "Stop these emails": a button, so that a link scanner opening the page stops nothing (RFC 8058). */
export function UnsubscribePage() {
  const token = useSearchParams()[0].get('token');
  const [state, setState] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const stop = async () => {
    if (!token) return;
    setBusy(true);
    try {
      setState({ ok: true, text: await (await account()).unsubscribe(token) });
    } catch (error) {
      setState({ ok: false, text: isDataError(error) ? error.message : 'Something went wrong. Try again in a moment.' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard title="Stop notification emails">
      {state ? (
        <LinkAnswer state={state} />
      ) : (
        <>
          <p>
            Insight Exchange will stop emailing you about replies, reviews and the daily digest. Account emails (a password reset) still
            come.
          </p>
          <button type="button" className="btn btn-primary w-100" onClick={() => void stop()} disabled={busy || !token}>
            {busy && <Spinner className="me-2" />}
            Stop emails
          </button>
        </>
      )}
    </AuthCard>
  );
}
