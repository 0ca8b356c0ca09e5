// Profile's account sections (issue 41, connected mode): "Password" (Change password, with the
// current one), "Signed-in devices" (each session's browser, platform, first and last seen, "This
// device", Sign out, and Sign out everywhere else) and "Email notifications" (Email me: Never, When
// I'm away, Daily digest; with a reminder to confirm the address). Local-only, one card says that
// these need the forum's server.
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { IconDevices, IconKey, IconMail } from '@tabler/icons-react';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { useMode } from '../../hooks/use-mode';
import { EMAIL_PREF_LABELS, EMAIL_PREFS, type Account, type Device, type EmailPref } from '../../shared/account';
import { LIMITS } from '../../shared/post-rules';
import { validateNewPassword } from '../../shared/validation';
import { NewPasswordField } from '../../components/new-password-field';

const account = () => import('../../sync/account');
const when = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function Panel({ icon, title, children }: { icon: React.ReactNode; title: string; children: React.ReactNode }) {
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

function PasswordPanel() {
  const id = useId();
  const showToast = useToast();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const weak = !current ? { message: 'Enter your current password.' } : validateNewPassword(next);
    if (weak) {
      setProblem(weak.message);
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      const message = await (await account()).changePassword(current, next);
      showToast({ title: 'Password changed', description: message });
      setCurrent('');
      setNext('');
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel icon={<IconKey aria-hidden="true" size={20} />} title="Password">
      <form onSubmit={onSubmit} noValidate>
        <div className="mb-2">
          <label htmlFor={`${id}-current`} className="form-label">
            Current password
          </label>
          <input
            id={`${id}-current`}
            className="form-control"
            type="password"
            autoComplete="current-password"
            value={current}
            maxLength={LIMITS.password}
            onChange={(event) => setCurrent(event.target.value)}
            disabled={busy}
          />
        </div>
        <NewPasswordField
          className="mb-2"
          value={next}
          onChange={setNext}
          problem={problem}
          disabled={busy}
          note="Your other devices will be signed out."
        />
        <button type="submit" className="btn btn-outline-primary w-100" disabled={busy} aria-busy={busy || undefined}>
          {busy && <Spinner className="me-2" />}
          Change password
        </button>
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

function EmailPanel() {
  const id = useId();
  const showToast = useToast();
  const [state, setState] = useState<Account>();
  const [failed, setFailed] = useState(false);
  const [resent, setResent] = useState<string>();
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

/** The account sections of Profile: the server's (connected), or a note that they need it (local-only). */
export function AccountPanels() {
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
  return (
    <>
      <PasswordPanel />
      <DevicesPanel />
      <EmailPanel />
    </>
  );
}
