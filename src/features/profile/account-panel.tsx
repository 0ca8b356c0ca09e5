// Profile's account sections (issue 41, connected mode): "Password" (Change password, with the
// current one), "Signed-in devices" (each session's browser, platform, first and last seen, "This
// device", Sign out, and Sign out everywhere else) and "Email notifications" (Email me: Never, When
// I'm away, Daily digest; with a reminder to confirm the address), and "Email" (the address, and
// Change email with the current password: a link to the new address confirms it). Local-only, one card says that
// these need the forum's server. An account made by the organisation's sign-in has no password (issue
// 63): Profile says its email is the organisation's and offers no change, no password to change, and
// Delete my account asks for a fresh sign-in with the organisation instead of a password.
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { IconDatabaseExport, IconDevices, IconKey, IconMail } from '@tabler/icons-react';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { useMode } from '../../hooks/use-mode';
import {
  ADMIN_EMAIL_FIXED_MESSAGE,
  EMAIL_PREF_LABELS,
  EMAIL_PREFS,
  RECENT_SIGN_IN_MINUTES,
  type Account,
  type Device,
  type EmailPref,
} from '../../shared/account';
import { LIMITS } from '../../shared/post-rules';
import { validateChangeEmail, validateNewPassword } from '../../shared/validation';
import { NewPasswordField } from '../../components/new-password-field';
import { isDataError } from '../../db/storage/errors';

const account = () => import('../../sync/account');
const sso = () => import('../../sync/sso');

/**
 * The organisation's name as /login last showed it ("Sign in with {label}"), else "your organisation"
 * (as /login says without a label). Read through a dynamic import: the remembered methods' schema
 * (zod) stays off Profile's first load, as the account requests' client does.
 */
function useOrganisationLabel(): string {
  const [label, setLabel] = useState('your organisation');
  useEffect(() => {
    let live = true;
    void import('../../db/members/auth-methods')
      .then(({ rememberedAuthMethods }) => {
        const remembered = rememberedAuthMethods()?.sso?.label;
        if (live && remembered) setLabel(remembered);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return label;
}

/** Where the organisation's sign-in comes back to, with Delete my account open. */
export const DELETE_RETURN = '/profile?delete=confirm';

/** Profile's sentences for an account without a password (issue 63). */
export const NO_PASSWORD_NOTE = (label: string) =>
  `Your account signs in with ${label} and has no password here, so there is none to change.`;
export const ORGANISATION_EMAIL_NOTE = (label: string) =>
  `This is the email ${label} gave your account when you first signed in with it, so it cannot be changed here.`;
export const DELETE_SIGN_IN_AGAIN = (label: string) =>
  `Your account has no password. To confirm it is you, sign in again with ${label} (or a passkey): for ${RECENT_SIGN_IN_MINUTES} minutes after, you can delete your account here.`;
export const DELETE_SIGNED_IN_RECENTLY = `You signed in less than ${RECENT_SIGN_IN_MINUTES} minutes ago, so no password is needed.`;
const when = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One Profile section: its icon and title as the heading that names it. */
export function Panel({ icon, title, children }: { icon: React.ReactNode; title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section className="card app-panel" aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="app-sidebar-title">
          {icon} {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

/** The current password, asked again before the account changes (a password, or its address). */
function CurrentPasswordField(props: { id: string; value: string; onChange: (value: string) => void; disabled: boolean }) {
  return (
    <div className="mb-2">
      <label htmlFor={props.id} className="form-label">
        Current password
      </label>
      <input
        id={props.id}
        className="form-control"
        type="password"
        autoComplete="current-password"
        value={props.value}
        maxLength={LIMITS.password}
        onChange={(event) => props.onChange(event.target.value)}
        disabled={props.disabled}
      />
    </div>
  );
}

/**
 * A Profile form's sending: its problem said under its field (what the device checks first, or the
 * server's `invalid`), any other refusal as a toast, and busy while the request runs.
 */
function useFormSend() {
  const showToast = useToast();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const send = async (event: FormEvent<HTMLFormElement>, wrong: { message: string } | null, work: () => Promise<void>) => {
    event.preventDefault();
    if (busy) return;
    setProblem(wrong?.message);
    if (wrong) return;
    setBusy(true);
    try {
      await work();
    } catch (error) {
      if (isDataError(error, 'invalid')) setProblem(error.message);
      else showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, send };
}

/** A Profile form's button, a spinner in it while the request runs. */
function SubmitButton({ busy, children }: { busy: boolean; children: string }) {
  return (
    <button type="submit" className="btn btn-outline-primary w-100" disabled={busy} aria-busy={busy || undefined}>
      {busy && <Spinner className="me-2" />}
      {children}
    </button>
  );
}

function PasswordPanel({ mine, failed }: { mine?: Account; failed: boolean }) {
  const id = useId();
  const label = useOrganisationLabel();
  const showToast = useToast();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const { busy, problem, send } = useFormSend();
  // The server's policy (a commonly used password) is said on the New password field too.
  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    send(event, !current ? { message: 'Enter your current password.' } : validateNewPassword(next), async () => {
      const message = await (await account()).changePassword(current, next);
      showToast({ title: 'Password changed', description: message });
      setCurrent('');
      setNext('');
    });
  // Until the account is read (or could not be), nothing is offered: a member without a password
  // would otherwise see a form for one flash by.
  if (mine?.hasPassword === false || (!mine && !failed))
    return (
      <Panel icon={<IconKey aria-hidden="true" size={20} />} title="Password">
        {mine && <p className="small text-body-secondary mb-0">{NO_PASSWORD_NOTE(label)}</p>}
      </Panel>
    );
  return (
    <Panel icon={<IconKey aria-hidden="true" size={20} />} title="Password">
      <form onSubmit={onSubmit} noValidate>
        <CurrentPasswordField id={`${id}-current`} value={current} onChange={setCurrent} disabled={busy} />
        <NewPasswordField
          className="mb-2"
          value={next}
          onChange={setNext}
          problem={problem}
          disabled={busy}
          note="Your other devices will be signed out."
        />
        <SubmitButton busy={busy}>Change password</SubmitButton>
      </form>
    </Panel>
  );
}

function DevicesPanel() {
  const showToast = useToast();
  const [devices, setDevices] = useState<Device[]>();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<string>();
  const load = useCallback(
    () =>
      account()
        .then((m) => m.readDevices())
        .then(
          (list) => {
            setDevices(list);
            setFailed(false);
          },
          () => setFailed(true),
        ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const act = async (key: string, work: () => Promise<string | void>) => {
    setBusy(key);
    try {
      const message = await work();
      if (message) showToast({ title: 'Signed out', description: message });
      await load();
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(undefined);
    }
  };
  const others = devices?.filter((device) => !device.current).length ?? 0;
  return (
    <Panel icon={<IconDevices aria-hidden="true" size={20} />} title="Signed-in devices">
      {failed ? (
        <p className="small text-body-secondary mb-0">The list of devices needs a connection to the server.</p>
      ) : !devices ? (
        <p className="small text-body-secondary mb-0" role="status">
          <Spinner className="me-2" />
          Loading devices…
        </p>
      ) : (
        <>
          <ul className="list-unstyled mb-2 app-devices">
            {devices.map((device) => (
              <li
                key={device.id}
                className="d-flex align-items-start gap-2 py-2 border-bottom"
                aria-label={`${device.browser} on ${device.platform}`}
              >
                <div className="flex-grow-1 small">
                  <div className="fw-semibold">
                    {device.browser} on {device.platform}
                    {device.current && <span className="badge text-bg-success ms-2">This device</span>}
                  </div>
                  <div className="text-body-secondary">Signed in {when(device.createdAt)}</div>
                  <div className="text-body-secondary">Last seen {when(device.lastSeenAt)}</div>
                </div>
                {!device.current && (
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger text-nowrap"
                    disabled={busy !== undefined}
                    aria-label={`Sign out ${device.browser} on ${device.platform}`}
                    onClick={() =>
                      void act(device.id, async () => {
                        await (await account()).signOutDevice(device.id);
                        return `${device.browser} on ${device.platform} was signed out.`;
                      })
                    }
                  >
                    Sign out
                  </button>
                )}
              </li>
            ))}
          </ul>
          {others > 0 && (
            <button
              type="button"
              className="btn btn-outline-danger btn-sm w-100"
              disabled={busy !== undefined}
              onClick={() => void act('others', async () => (await account()).signOutOtherDevices())}
            >
              Sign out everywhere else
            </button>
          )}
        </>
      )}
    </Panel>
  );
}

/** The server's account (address, confirmed, email setting) as Profile shows it; `failed`: it could not be read. */
function useAccount() {
  const [state, setState] = useState<Account>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    account()
      .then((m) => m.readAccount())
      .then(
        (answer) => live && setState(answer),
        () => live && setFailed(true),
      );
    return () => {
      live = false;
    };
  }, []);
  return [state, setState, failed] as const;
}

function EmailPanel() {
  const id = useId();
  const showToast = useToast();
  const [state, setState, failed] = useAccount();
  const [resent, setResent] = useState<string>();
  const choose = async (emailPref: EmailPref) => {
    const before = state;
    if (state) setState({ ...state, emailPref });
    try {
      setState(await (await account()).setEmailPref(emailPref));
    } catch (error) {
      setState(before);
      showToast(errorToast(error));
    }
  };
  const resend = async () => {
    try {
      setResent(await (await account()).resendConfirmation());
    } catch (error) {
      showToast(errorToast(error));
    }
  };
  return (
    <Panel icon={<IconMail aria-hidden="true" size={20} />} title="Email notifications">
      {failed ? (
        <p className="small text-body-secondary mb-0">Email settings need a connection to the server.</p>
      ) : (
        <>
          {state && !state.emailVerified && (
            <div className="alert alert-warning small py-2" role="status">
              Confirm your email ({state.email}) to receive notifications.{' '}
              {resent ?? (
                <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={() => void resend()}>
                  Send the link again
                </button>
              )}
            </div>
          )}
          <label htmlFor={`${id}-pref`} className="form-label">
            Email me
          </label>
          <select
            id={`${id}-pref`}
            className="form-select"
            value={state?.emailPref ?? 'away'}
            disabled={!state}
            onChange={(event) => void choose(event.target.value as EmailPref)}
          >
            {EMAIL_PREFS.map((pref) => (
              <option key={pref} value={pref}>
                {EMAIL_PREF_LABELS[pref]}
              </option>
            ))}
          </select>
          <p className="small text-body-secondary mt-2 mb-0">
            “When I’m away” emails what you have not read after 10 minutes, at most once every 10 minutes. Every email has a link to stop
            them.
          </p>
        </>
      )}
    </Panel>
  );
}

/**
 * "Email": the address, and Change email (issue 59): nothing changes until the new address's link is
 * used. The admin is told why there is none for them (the server would refuse it).
 */
function ChangeEmailPanel({ admin, mine, failed }: { admin: boolean; mine?: Account; failed: boolean }) {
  const id = useId();
  const label = useOrganisationLabel();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, problem, send } = useFormSend();
  const [sent, setSent] = useState<string>();
  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    send(event, validateChangeEmail(email, password), async () => {
      setSent(await (await account()).changeEmail(email, password));
      setEmail('');
      setPassword('');
    });
  return (
    <Panel icon={<IconMail aria-hidden="true" size={20} />} title="Email">
      <p className="small mb-2">
        Your email: <strong>{mine?.email ?? '…'}</strong>
      </p>
      {admin ? (
        <p className="small text-body-secondary mb-0">{ADMIN_EMAIL_FIXED_MESSAGE}</p>
      ) : mine?.hasPassword === false ? (
        <p className="small text-body-secondary mb-0">{ORGANISATION_EMAIL_NOTE(label)}</p>
      ) : !mine && !failed ? null : (
        <form onSubmit={onSubmit} noValidate>
          <label className="form-label d-block mb-2">
            New email
            <input
              {...{ type: 'email', autoComplete: 'email', maxLength: LIMITS.email, value: email, disabled: busy }}
              className="form-control mt-2"
              onChange={(event) => setEmail(event.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
            />
          </label>
          <CurrentPasswordField id={`${id}-password`} value={password} onChange={setPassword} disabled={busy} />
          {problem && (
            <p id={`${id}-problem`} className="small text-danger mb-2">
              {problem}
            </p>
          )}
          {sent && (
            <p className="small text-success mb-2" role="status">
              {sent}
            </p>
          )}
          <SubmitButton busy={busy}>Change email</SubmitButton>
        </form>
      )}
    </Panel>
  );
}

/**
 * "Your data": Download my data (the server's JSON file), and Delete my account (password again, and a
 * choice). Without a password (issue 63), a sign-in within the last ten minutes confirms it: until
 * then the form offers "Sign in again with {label}", which comes back here with the form open.
 */
function DataPanel({ onDeleted, mine }: { onDeleted: () => Promise<void>; mine?: Account }) {
  const id = useId();
  const showToast = useToast();
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(() => new URLSearchParams(window.location.search).get('delete') === 'confirm');
  const noPassword = mine?.hasPassword === false;
  const label = useOrganisationLabel();
  const [password, setPassword] = useState('');
  const [keep, setKeep] = useState(true);
  const download = async () => {
    setBusy(true);
    try {
      const file = await (await account()).myDataFile();
      const link = document.createElement('a');
      link.href = URL.createObjectURL(file);
      link.download = `insight-exchange-data-${new Date().toISOString().slice(0, 10)}.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      showToast({ title: 'Your data', description: 'Everything the server holds about you was downloaded as a JSON file.' });
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  const signInAgain = async () => {
    setBusy(true);
    try {
      await (await sso()).startOrganisationSignIn(DELETE_RETURN, undefined, undefined, true);
    } catch (error) {
      showToast(errorToast(error));
      setBusy(false);
    }
  };
  const remove = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (noPassword && !mine.recentSignIn) return;
    if (!noPassword && !password) {
      showToast({ title: 'Error', description: 'Enter your password to delete your account.', variant: 'error' });
      return;
    }
    setBusy(true);
    try {
      const message = await (await account()).deleteMyAccount(noPassword ? undefined : password, keep);
      showToast({ title: 'Account deleted', description: message });
      await onDeleted();
    } catch (error) {
      showToast(errorToast(error));
      setBusy(false);
    }
  };
  return (
    <Panel icon={<IconDatabaseExport aria-hidden="true" size={20} />} title="Your data">
      <p className="small text-body-secondary">
        Your account, posts in every status, replies, flags, saved posts, notifications, settings and devices, as the server holds them.
      </p>
      <button type="button" className="btn btn-outline-primary w-100 mb-2" disabled={busy} onClick={() => void download()}>
        Download my data
      </button>
      {!deleting ? (
        <button type="button" className="btn btn-outline-danger w-100" disabled={busy} onClick={() => setDeleting(true)}>
          Delete my account
        </button>
      ) : (
        <form onSubmit={remove} noValidate aria-label="Delete my account" className="border border-danger-subtle rounded p-2">
          <p className="small mb-2">
            Your account, address and private data are erased, and every device is signed out. This cannot be undone.
          </p>
          <fieldset className="mb-2">
            <legend className="form-label fs-6">What you wrote</legend>
            <div className="form-check">
              <input
                className="form-check-input"
                type="radio"
                id={`${id}-keep`}
                name={`${id}-content`}
                checked={keep}
                onChange={() => setKeep(true)}
              />
              <label className="form-check-label small" htmlFor={`${id}-keep`}>
                Keep my posts and replies, as “Deleted member”
              </label>
            </div>
            <div className="form-check">
              <input
                className="form-check-input"
                type="radio"
                id={`${id}-remove`}
                name={`${id}-content`}
                checked={!keep}
                onChange={() => setKeep(false)}
              />
              <label className="form-check-label small" htmlFor={`${id}-remove`}>
                Remove my posts and replies
              </label>
            </div>
          </fieldset>
          {noPassword ? (
            <p className="small mb-2" role="status">
              {mine.recentSignIn ? DELETE_SIGNED_IN_RECENTLY : DELETE_SIGN_IN_AGAIN(label)}
            </p>
          ) : (
            <>
              <label htmlFor={`${id}-password`} className="form-label">
                Password
              </label>
              <input
                id={`${id}-password`}
                className="form-control mb-2"
                type="password"
                autoComplete="current-password"
                value={password}
                maxLength={LIMITS.password}
                onChange={(event) => setPassword(event.target.value)}
                disabled={busy}
              />
            </>
          )}
          <div className="d-flex gap-2">
            <button type="button" className="btn btn-outline-secondary flex-grow-1" disabled={busy} onClick={() => setDeleting(false)}>
              Cancel
            </button>
            {noPassword && !mine.recentSignIn ? (
              <button type="button" className="btn btn-primary flex-grow-1" disabled={busy} onClick={() => void signInAgain()}>
                {`Sign in again with ${label}`}
              </button>
            ) : (
              <button type="submit" className="btn btn-danger flex-grow-1" disabled={busy} aria-busy={busy || undefined}>
                {busy && <Spinner className="me-2" />}
                Delete my account
              </button>
            )}
          </div>
        </form>
      )}
    </Panel>
  );
}

/**
 * The account sections of Profile: the server's (connected), or a note that they need it (local-only).
 * `onDeleted` signs this device out once the account is deleted; `admin`: the signed-in member is the admin.
 */
export function AccountPanels({ onDeleted, admin }: { onDeleted: () => Promise<void>; admin: boolean }) {
  const mode = useMode();
  if (mode === undefined) return null;
  if (mode === 'local')
    return (
      <Panel icon={<IconKey aria-hidden="true" size={20} />} title="Account">
        <p className="small text-body-secondary mb-0">
          Password reset, signed-in devices and email need the forum’s server. On this device your account lives in this browser only; you
          can still export your posts below.
        </p>
      </Panel>
    );
  return <ConnectedPanels admin={admin} onDeleted={onDeleted} />;
}

/** Connected: the sections that depend on the account (a password or not) read it once. */
function ConnectedPanels({ onDeleted, admin }: { onDeleted: () => Promise<void>; admin: boolean }) {
  const [mine, , failed] = useAccount();
  return (
    <>
      <PasswordPanel mine={mine} failed={failed} />
      <DevicesPanel />
      <ChangeEmailPanel admin={admin} mine={mine} failed={failed} />
      <EmailPanel />
      <DataPanel onDeleted={onDeleted} mine={mine} />
    </>
  );
}
