// /login's "Sign in with a passkey" (issue 63, connected mode): the browser offers the passkeys it
// holds for this forum (no email asked), and the member it names is signed in and taken home.
// Offline, it says that signing in this way needs the network and sends nothing; a prompt the person
// cancelled is said quietly under the button, not as an error. Hidden where the browser has no WebAuthn.
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { IconFingerprint } from '@tabler/icons-react';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { paths } from '../../config/paths';
import { clearStop } from '../../db/members/stop-notice';
import { DataError, isDataError } from '../../db/storage/errors';
import { ERRORS } from '../../shared/errors';
import { passkeysSupported } from '../../lib/webauthn';

export function PasskeySignIn({ disabled }: { disabled: boolean }) {
  const showToast = useToast();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  if (!passkeysSupported()) return null;
  const onPress = async () => {
    setCancelled(false);
    // Offline: said at once, and nothing is sent (nor the prompt's code fetched).
    if (!navigator.onLine) return showToast(errorToast(new DataError('offline_passkey')));
    setBusy(true);
    try {
      // The authenticator did not verify the user and two-step verification is on: the code next.
      if ((await (await import('../../sync/passkeys')).signInWithPasskey()) === 'two-step') {
        setBusy(false);
        return navigate(`${paths.login}?step=code`);
      }
      showToast({ title: 'Success', description: 'Logged in successfully!' });
      clearStop();
      navigate(paths.home);
    } catch (error) {
      setBusy(false);
      if (isDataError(error, 'passkey_cancelled')) setCancelled(true);
      else showToast(errorToast(error));
    }
  };
  return (
    <div className="mt-3">
      <button
        type="button"
        className="btn btn-outline-secondary btn-lg w-100"
        onClick={() => void onPress()}
        disabled={disabled || busy}
        aria-busy={busy || undefined}
      >
        {busy ? <Spinner className="me-2" /> : <IconFingerprint aria-hidden="true" size={20} className="me-2" />}
        Sign in with a passkey
      </button>
      {cancelled && (
        <p role="status" className="small text-body-secondary text-center mt-2 mb-0">
          {ERRORS.passkey_cancelled.message}
        </p>
      )}
    </div>
  );
}
