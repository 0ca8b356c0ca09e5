import { lazy, Suspense, useState } from 'react';
import { IconEdit, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../components/avatar';
import { paths } from '../../config/paths';
import { plural } from '../../lib/format';
import type { Session } from '../../db/types';
import { useOwnMemberId } from '../../hooks/use-own-member-id';
import { useMyPostCount } from './use-my-posts';

// The dialog's code loads with the first press of Edit Profile.
const EditProfileDialog = lazy(() => import('./edit-profile-dialog').then((module) => ({ default: module.EditProfileDialog })));

/** Name, email and role of the signed-in member, Edit Profile (the display name) and their public page. */
export function ProfileCard({ user }: { user: Session }) {
  const count = useMyPostCount(user.email);
  const ownId = useOwnMemberId(user.email);
  const [editing, setEditing] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <section className="card app-profile-card" aria-labelledby="profile-name">
      <div className="card-body">
        <Avatar name={user.name} seed={ownId} size={64} />
        <div className="app-profile-identity">
          <h1 id="profile-name" className="h3 mb-1">
            {user.name}
          </h1>
          <p className="mb-2 text-body-secondary app-break app-profile-email">{user.email}</p>
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <span className={`badge ${user.role === 'admin' ? 'text-bg-primary' : 'text-bg-secondary'}`}>
              {user.role === 'admin' ? 'Admin' : 'Member'}
            </span>
            {count !== undefined && <span className="small text-body-secondary">{plural(count, 'post')}</span>}
            {ownId && (
              <Link className="small app-profile-public" to={paths.member(ownId)}>
                <IconUser aria-hidden="true" size={16} /> View public page
              </Link>
            )}
          </div>
        </div>
        <button
          type="button"
          className="btn btn-outline-primary app-profile-edit"
          onClick={() => {
            setOpened(true);
            setEditing(true);
          }}
        >
          <IconEdit aria-hidden="true" size={18} />
          <span>Edit Profile</span>
        </button>
      </div>
      {opened && (
        <Suspense fallback={null}>
          <EditProfileDialog email={user.email} name={user.name} show={editing} onHide={() => setEditing(false)} />
        </Suspense>
      )}
    </section>
  );
}
