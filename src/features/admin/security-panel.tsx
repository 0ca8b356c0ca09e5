// /admin's "Security" (issue 63, connected mode only): the switch "Require two-step verification for
// staff" (the server refuses it until the admin's own account has it on, and writes each change to
// the staff log), and, while it is required of this account and not on, the refusal's sentence with
// a link to Profile, where it is turned on.
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import Form from 'react-bootstrap/Form';
import { IconShieldLock } from '@tabler/icons-react';
import { Panel } from '../../components/panel';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { paths } from '../../config/paths';
import { useMode } from '../../hooks/use-mode';
import { useOnline } from '../../hooks/use-online';
import { ERRORS } from '../../shared/errors';

const twoStep = () => import('../../sync/two-step');

export function SecurityPanel() {
  const connected = useMode() === 'connected';
  const online = useOnline();
  if (!connected || !online) return null;
  return <Security />;
}

function Security() {
  const id = useId();
  const showToast = useToast();
  const [required, setRequired] = useState<boolean>();
  // This account is held back from admin work until its own two-step verification is on.
  const [held, setHeld] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void twoStep().then(async (m) => {
      const [settings, mine] = await Promise.allSettled([m.readSecuritySettings(), m.readTwoStep()]);
      if (!live) return;
      if (settings.status === 'fulfilled') setRequired(settings.value.requireTwoStepForStaff);
      if (mine.status === 'fulfilled') setHeld(mine.value.required && !mine.value.on);
    });
    return () => {
      live = false;
    };
  }, []);

  const change = async (next: boolean) => {
    setBusy(true);
    try {
      setRequired((await (await twoStep()).setSecuritySettings({ requireTwoStepForStaff: next })).requireTwoStepForStaff);
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel id={`${id}-title`} icon={<IconShieldLock aria-hidden="true" size={20} />} title="Security" className="app-panel">
      {held && (
        <div className="alert alert-warning small py-2" role="alert">
          {ERRORS.two_step_required.message} <Link to={paths.profile}>Open Profile</Link>
        </div>
      )}
      <Form.Check
        type="switch"
        role="switch"
        id={`${id}-require`}
        label="Require two-step verification for staff"
        checked={required ?? false}
        disabled={required === undefined || busy}
        onChange={(event) => void change(event.target.checked)}
      />
      <p className="small text-body-secondary mt-2 mb-0">
        Staff accounts without it are kept from admin work until they turn it on in their Profile.
      </p>
    </Panel>
  );
}
