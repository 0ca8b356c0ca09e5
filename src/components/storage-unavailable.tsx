import { reloadApp } from './reload';
import { IconDatabaseOff } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';

/** The full page shown when this browser refuses IndexedDB: what happened and what to do. */
export function StorageUnavailable() {
  return (
    <div className="container app-page-body">
      <div className="card app-storage-unavailable mx-auto">
        <div className="card-body">
          <IconDatabaseOff aria-hidden="true" size={44} className="text-danger mb-3" />
          <h1 className="h3">Insight Exchange can&apos;t store data in this browser</h1>
          <p>
            The forum keeps posts on this device, and this browser is refusing to let it save anything. That usually means a private or
            incognito window, or site data being turned off in the browser&apos;s settings.
          </p>
          <ul>
            <li>Open Insight Exchange in a normal (not private) window, or</li>
            <li>allow site data (cookies and site storage) for this site, then reload.</li>
          </ul>
          <p className="text-body-secondary">You can still read about Insight Exchange while storage is off.</p>
          <div className="d-flex flex-wrap gap-2">
            <button type="button" className="btn btn-primary" onClick={() => void reloadApp()}>
              Reload
            </button>
            <Link className="btn btn-outline-primary" to={paths.home}>
              Home
            </Link>
            <Link className="btn btn-outline-primary" to={paths.about}>
              About Us
            </Link>
          </div>
        </div>
      </div>
    </div>
  );
}
