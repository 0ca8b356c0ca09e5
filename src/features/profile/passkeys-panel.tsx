// Profile's "Passkeys" (issue 63, connected mode): the member's passkeys (name, when added, when last
// used), each with "Remove" (asked first), and "Add a passkey", which opens the browser's prompt.
// Offline, the list cannot be read and nothing can be added: a sentence says so. Without WebAuthn
// in this browser, the list still shows (a passkey made elsewhere can be removed) but not the button.
import { useCallback, useEffect, useId, useState } from 'react';
import { IconFingerprint } from '@tabler/icons-react';
import { ConfirmDialog } from '../../components/confirm/confirm-dialog';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { isDataError } from '../../db/storage/errors';
import { useMode } from '../../hooks/use-mode';
import { useOnline } from '../../hooks/use-online';
import { passkeysSupported } from '../../lib/webauthn';
import { ERRORS } from '../../shared/errors';
import type { Passkey } from '../../shared/passkeys';
import { Panel } from './account-panel';

const passkeys = () => import('../../sync/passkeys');
const when = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function PasskeysPanel() {
  const mode = useMode();
  if (mode !== 'connected') return null;
  return <Passkeys />;
}

function Passkeys() {
  const id = useId();
  const showToast = useToast();
  const online = useOnline();
  const [list, setList] = useState<Passkey[]>();
  const [failed, setFailed] = useState(false);
  const [adding, setAdding] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const [asking, setAsking] = useState<{ passkey: Passkey; open: boolean } | null>(null);
  const load = useCallback(
    () =>
      passkeys()
        .then((m) => m.listPasskeys())
        .then(
          (found) => {
            setList(found);
            setFailed(false);
          },
          () => setFailed(true),
        ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load, online]);

  const add = async () => {
    setCancelled(false);
    setAdding(true);
    try {
      const added = await (await passkeys()).addPasskey();
      showToast({ title: 'Passkey added', description: `“${added.name}” can now sign you in.` });
      await load();
    } catch (error) {
      if (isDataError(error, 'passkey_cancelled')) setCancelled(true);
      else showToast(errorToast(error));
    } finally {
      setAdding(false);
    }
  };

  const remove = async (passkey: Passkey): Promise<boolean> => {
    try {
      await (await passkeys()).removePasskey(passkey.id);
      showToast({ title: 'Passkey removed', description: `“${passkey.name}” no longer signs you in.` });
      await load();
      return true;
    } catch (error) {
      showToast(errorToast(error));
      return false;
    }
  };

  return (
    <Panel icon={<IconFingerprint aria-hidden="true" size={20} />} title="Passkeys">
      <p className="small text-body-secondary">Sign in with your fingerprint, face or screen lock instead of a password.</p>
      {failed || !online ? (
        <p className="small text-body-secondary">Passkeys need a connection to the forum’s server.</p>
      ) : !list ? (
        <p className="small text-body-secondary" role="status">
          <Spinner className="me-2" />
          Loading passkeys…
        </p>
      ) : list.length === 0 ? (
        <p className="small text-body-secondary">No passkeys yet.</p>
      ) : (
        <ul className="list-unstyled mb-2" aria-label="Your passkeys">
          {list.map((passkey) => (
            <li key={passkey.id} className="d-flex align-items-start gap-2 py-2 border-bottom">
              <div className="flex-grow-1 small">
                <div className="fw-semibold" id={`${id}-${passkey.id}`}>
                  {passkey.name}
                </div>
                <div className="text-body-secondary">Added {when(passkey.createdAt)}</div>
                <div className="text-body-secondary">{passkey.lastUsedAt ? `Last used ${when(passkey.lastUsedAt)}` : 'Not used yet'}</div>
              </div>
              <button
                type="button"
                className="btn btn-sm btn-outline-danger"
                aria-describedby={`${id}-${passkey.id}`}
                disabled={!online}
                onClick={() => setAsking({ passkey, open: true })}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {passkeysSupported() && (
        <button
          type="button"
          className="btn btn-outline-primary w-100"
          disabled={!online || adding}
          aria-busy={adding || undefined}
          onClick={() => void add()}
        >
          {adding && <Spinner className="me-2" />}
          Add a passkey
        </button>
      )}
      {cancelled && (
        <p role="status" className="small text-body-secondary mt-2 mb-0">
          {ERRORS.passkey_cancelled.message}
        </p>
      )}
      {asking && (
        <ConfirmDialog
          title="Remove passkey?"
          confirmLabel="Remove"
          show={asking.open}
          onConfirm={() => remove(asking.passkey)}
          onHide={() => setAsking({ ...asking, open: false })}
          onExited={() => setAsking(null)}
        >
          “{asking.passkey.name}” will no longer sign you in. You can also delete it from the device or password manager that holds it.
        </ConfirmDialog>
      )}
    </Panel>
  );
}
