// Profile's "Two-step verification" (issue 63, connected mode only; local-only, the section is absent).
// Off: "Set up" shows the QR code (made by the server, an <img>), the key as text in a read-only field
// "Key", a field "Code" and "Turn on"; then the ten recovery codes, shown once, with "Download codes"
// (a .txt file). On: a field "Code" (the app's code or a recovery code) with "Turn off" and "New
// recovery codes". Offline, the buttons wait for the network, and a sentence says so.
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { IconShieldLock } from '@tabler/icons-react';
import { Panel } from '../../components/panel';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { useMode } from '../../hooks/use-mode';
import { useOnline } from '../../hooks/use-online';
import { saveFile } from '../../lib/download';
import { ERRORS } from '../../shared/errors';
import type { TwoStepRequest } from '../../shared/sign-in';
import { isAppCode, TOTP } from '../../shared/two-step-rules';
import type { TwoStepSetup, TwoStepStatus } from '../../shared/two-step';

const twoStep = () => import('../../sync/two-step');

/** The sentence while offline. */
export const TWO_STEP_OFFLINE = 'Two-step verification needs a connection to the server.';

/** A code as typed: six digits are the app's code, anything else a recovery code. */
export function codeOf(typed: string): TwoStepRequest {
  return isAppCode(typed) ? { code: typed.replace(/\s+/g, '') } : { recoveryCode: typed.trim() };
}

/** The recovery codes as a text file a member keeps. */
function codesFile(codes: string[], email: string): Blob {
  const lines = [
    `Insight Exchange recovery codes for ${email}`,
    'Each code signs you in once when your authenticator app is not at hand.',
    '',
    ...codes,
    '',
  ];
  return new Blob([lines.join('\n')], { type: 'text/plain;charset=utf-8' });
}

type Stage = { kind: 'status' } | { kind: 'setup'; setup: TwoStepSetup } | { kind: 'codes'; codes: string[] };

export function TwoStepPanel({ email }: { email: string }) {
  const connected = useMode() === 'connected';
  if (!connected) return null;
  return <TwoStepSection email={email} />;
}

function TwoStepSection({ email }: { email: string }) {
  const id = useId();
  const online = useOnline();
  const showToast = useToast();
  const [status, setStatus] = useState<TwoStepStatus>();
  const [failed, setFailed] = useState(false);
  const [stage, setStage] = useState<Stage>({ kind: 'status' });
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState<string>();

  const load = useCallback(
    () =>
      twoStep()
        .then((m) => m.readTwoStep())
        .then(
          (answer) => {
            setStatus(answer);
            setFailed(false);
          },
          () => setFailed(true),
        ),
    [],
  );
  useEffect(() => {
    if (online) void load();
  }, [load, online]);

  /** Runs one request of the panel: busy meanwhile, its refusal said as a toast. */
  const act = async (key: string, work: () => Promise<void>) => {
    setBusy(key);
    try {
      await work();
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(undefined);
    }
  };

  /** The Code field's check before anything is sent. */
  const needsCode = (recoveryToo: boolean) => {
    const given = code.trim();
    const wrong = !given
      ? ERRORS.two_step_needed.message
      : !recoveryToo && !('code' in codeOf(given))
        ? `Enter the ${TOTP.digits}-digit code from your authenticator app.`
        : undefined;
    setProblem(wrong);
    return wrong === undefined;
  };

  const setUp = () =>
    act('setup', async () => {
      const setup = await (await twoStep()).startTwoStepSetup();
      setCode('');
      setProblem(undefined);
      setStage({ kind: 'setup', setup });
    });

  const turnOn = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!needsCode(false)) return;
    void act('on', async () => {
      const codes = await (await twoStep()).enableTwoStep(code.replace(/\s+/g, ''), email);
      setCode('');
      setStage({ kind: 'codes', codes });
      showToast({ title: 'Two-step verification is on', description: 'Keep your recovery codes somewhere safe.' });
      await load();
    });
  };

  const turnOff = () => {
    if (!needsCode(true)) return;
    void act('off', async () => {
      await (await twoStep()).disableTwoStep(codeOf(code));
      setCode('');
      showToast({ title: 'Two-step verification is off', description: 'Your password alone signs you in now.' });
      await load();
    });
  };

  const renewCodes = () => {
    if (!needsCode(true)) return;
    void act('codes', async () => {
      const codes = await (await twoStep()).newRecoveryCodes(codeOf(code));
      setCode('');
      setStage({ kind: 'codes', codes });
      await load();
    });
  };

  const codeField = (note: string) => (
    <div className="mb-2">
      <label htmlFor={`${id}-code`} className="form-label">
        Code
      </label>
      <input
        id={`${id}-code`}
        className={`form-control${problem ? ' is-invalid' : ''}`}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        autoComplete="one-time-code"
        spellCheck={false}
        maxLength={40}
        aria-invalid={problem !== undefined}
        aria-describedby={`${id}-code-note${problem ? ` ${id}-code-problem` : ''}`}
        disabled={busy !== undefined}
      />
      {problem && (
        <div className="invalid-feedback" id={`${id}-code-problem`}>
          {problem}
        </div>
      )}
      <small id={`${id}-code-note`} className="form-text d-block">
        {note}
      </small>
    </div>
  );
  const button = (key: string, words: string, props: { type?: 'submit' | 'button'; onClick?: () => void; variant?: string }) => (
    <button
      type={props.type ?? 'button'}
      className={`btn btn-${props.variant ?? 'outline-primary'} w-100 mb-2`}
      onClick={props.onClick}
      disabled={!online || busy !== undefined}
      aria-busy={busy === key || undefined}
    >
      {busy === key && <Spinner className="me-2" />}
      {words}
    </button>
  );

  let body: React.ReactNode;
  if (stage.kind === 'codes') {
    body = (
      <>
        <p className="small">
          Your recovery codes. Each signs you in once when your authenticator app is not at hand. Save them now: they are not shown again.
        </p>
        <ul className="list-unstyled app-recovery-codes font-monospace mb-2" aria-label="Recovery codes">
          {stage.codes.map((recoveryCode) => (
            <li key={recoveryCode}>{recoveryCode}</li>
          ))}
        </ul>
        <button
          type="button"
          className="btn btn-outline-primary w-100 mb-2"
          onClick={() => saveFile(codesFile(stage.codes, email), 'insight-exchange-recovery-codes.txt')}
        >
          Download codes
        </button>
        <button type="button" className="btn btn-link w-100" onClick={() => setStage({ kind: 'status' })}>
          I saved them
        </button>
      </>
    );
  } else if (stage.kind === 'setup') {
    body = (
      <form onSubmit={turnOn} noValidate>
        <p className="small">Scan this code with your authenticator app, or type the key into it. Then enter the code it shows.</p>
        <img
          src={stage.setup.qr}
          alt="QR code of the key, for your authenticator app"
          className="app-two-step-qr d-block mx-auto mb-2"
          width={180}
          height={180}
        />
        <div className="mb-2">
          <label htmlFor={`${id}-key`} className="form-label">
            Key
          </label>
          <input id={`${id}-key`} className="form-control font-monospace" value={stage.setup.key} readOnly />
        </div>
        {codeField('The 6-digit code your app shows for Insight Exchange.')}
        {button('on', 'Turn on', { type: 'submit', variant: 'primary' })}
        <button type="button" className="btn btn-link w-100" disabled={busy !== undefined} onClick={() => setStage({ kind: 'status' })}>
          Cancel
        </button>
      </form>
    );
  } else if (!status) {
    // Not read (offline, or the server not reached): the sentence above says why.
    body =
      failed || !online ? null : (
        <p className="small text-body-secondary mb-0" role="status">
          <Spinner className="me-2" />
          Loading…
        </p>
      );
  } else if (status.on) {
    body = (
      <>
        <p className="small">
          <span className="badge text-bg-success me-1">On</span> Signing in asks for a code from your authenticator app.{' '}
          {status.recoveryCodesLeft} recovery code{status.recoveryCodesLeft === 1 ? '' : 's'} left.
        </p>
        {codeField('The code your app shows, or a recovery code.')}
        {button('off', 'Turn off', { onClick: turnOff, variant: 'outline-danger' })}
        {button('codes', 'New recovery codes', { onClick: renewCodes })}
      </>
    );
  } else {
    body = (
      <>
        {status.required && (
          <div className="alert alert-warning small py-2" role="status">
            Staff accounts must turn on two-step verification for admin work.
          </div>
        )}
        <p className="small">Sign in with your password and a code from an authenticator app on your phone.</p>
        {button('setup', 'Set up', { onClick: () => void setUp() })}
      </>
    );
  }
  return (
    <Panel id={`${id}-title`} icon={<IconShieldLock aria-hidden="true" size={20} />} title="Two-step verification" className="app-panel">
      {(!online || (failed && !status)) && (
        <p className="small text-body-secondary" role="status">
          {TWO_STEP_OFFLINE}
        </p>
      )}
      {body}
    </Panel>
  );
}
